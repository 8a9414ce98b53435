// The Redis half of the live bus on a Redis Cluster (REDIS_CLUSTER_NODES), with sharded pub/sub:
// a channel belongs to the slot of its name (the live bus names each with a hash tag of its dialog
// or response, `historyDelta:{id}`), SPUBLISH goes through the ioredis Cluster to that slot's
// master, and only that shard carries it — the cluster bus does not copy it to every node, as it
// would a PUBLISH. This instance keeps one subscriber connection per master it has channels on, and
// SSUBSCRIBEs each channel on its slot's master.
//
// The same contract as the one-server fan-out (redis-fanout.ts): nothing queues while a node is
// away (a publish that cannot be sent is dropped; local delivery goes on), every wait has the
// command timeout, and channels are tracked here, not by ioredis (whose `shardedSubscribers`
// resubscribes without saying when the channels are live again). So after a shard's connection
// comes back, or after a slot moves to another master, exactly the channels of that shard are
// subscribed again, acknowledged, and then their listeners — not every listener — told to resync.
import { randomUUID } from "node:crypto";
import { Cluster } from "ioredis";
import { logger } from "../logger.js";
import { reportRedisConnection } from "../metrics.js";
import { ShardSubscribers } from "./redis-cluster-shards.js";
import {
  connectionOptions,
  frame,
  publishOutcomes,
  type RedisFanout,
  type RedisFanoutHandlers,
  type RedisFanoutOptions,
  startHeartbeat,
  subscriberConnectionOptions,
} from "./redis-messages.js";

/** "host:port,host:port" → the startup nodes (any few of the cluster's nodes will do). */
export function parseClusterNodes(list: string) {
  return list
    .split(",")
    .map((node) => node.trim())
    .filter(Boolean)
    .map((node) => {
      const at = node.lastIndexOf(":");
      return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
    });
}

// Topology changes (a failover, a resharding) are also learnt from a MOVED answer; this catches
// the ones no command ran into.
const SLOTS_REFRESH_MS = 5_000;

export function createClusterFanout(
  nodes: string,
  handlers: RedisFanoutHandlers,
  { commandTimeoutMs }: RedisFanoutOptions,
): RedisFanout {
  const origin = randomUUID();
  const options = connectionOptions(commandTimeoutMs);
  const commands = new Cluster(parseClusterNodes(nodes), {
    enableOfflineQueue: false,
    slotsRefreshInterval: SLOTS_REFRESH_MS,
    slotsRefreshTimeout: Math.max(commandTimeoutMs, 1_000),
    redisOptions: options,
  });
  commands.on("error", (error: Error) => logger.warn(`[live] Redis Cluster: ${error.message}`));
  const shards = new ShardSubscribers(commands, {
    origin,
    options: subscriberConnectionOptions(commandTimeoutMs),
    handlers,
    commandTimeoutMs,
  });
  const outcomes = publishOutcomes(() => undefined);
  const unreport = reportRedisConnection(
    () => commands.status === "ready" && [...shards.connections()].every((client) => client.status === "ready"),
  );
  // The slots were read again: channels whose slot has another master move there.
  commands.on("refresh", () => shards.followSlots());
  const stopHeartbeat = startHeartbeat(shards.connections, commandTimeoutMs, (client) => client.disconnect(true));

  return {
    publish(channel, payload) {
      commands.spublish(channel, frame(origin, payload)).then(outcomes.sent, outcomes.failed);
    },
    subscribe: shards.subscribe,
    unsubscribe: shards.unsubscribe,
    commands,

    async close() {
      stopHeartbeat();
      unreport();
      shards.disconnect();
      await (commands.status === "ready" ? commands.quit().catch(() => commands.disconnect()) : commands.disconnect());
    },
  };
}
