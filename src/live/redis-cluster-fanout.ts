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
import calculateSlot from "cluster-key-slot";
import { Cluster, Redis } from "ioredis";
import { logger } from "../logger.js";
import { reportRedisConnection } from "../metrics.js";
import {
  connectionOptions,
  frame,
  publishOutcomes,
  type RedisFanout,
  type RedisFanoutHandlers,
  type RedisFanoutOptions,
  timedOut,
  unframe,
  withTimeout,
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

interface Shard {
  node: string;
  client: Redis;
  channels: Set<string>;
}

interface Subscription {
  listeners: number;
  shard: Shard | null;
  /** When its SSUBSCRIBE was acknowledged. */
  subscribed: Promise<void>;
}

// Topology changes (a failover, a resharding) are also learnt from a MOVED answer; this catches
// the ones no command ran into.
const SLOTS_REFRESH_MS = 5_000;
/** How long before a subscription a node refused is asked for again (plus up to as much jitter). */
const RETRY_MS = 250;

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
  const acknowledged = <T>(promise: Promise<T>) => withTimeout(promise, commandTimeoutMs);
  const shards = new Map<string, Shard>();
  const subscriptions = new Map<string, Subscription>();
  const outcomes = publishOutcomes(() => undefined);
  const unreport = reportRedisConnection(
    () => commands.status === "ready" && [...shards.values()].every((shard) => shard.client.status === "ready"),
  );

  const masterOf = (channel: string): string | null => commands.slots[calculateSlot(channel)]?.[0] ?? null;

  /** SSUBSCRIBE (one slot's channels per call, as Redis requires), then a PING: the PONG means they are live. */
  async function confirm(shard: Shard, names: string[]) {
    const bySlot = new Map<number, string[]>();
    for (const name of names) bySlot.set(calculateSlot(name), [...(bySlot.get(calculateSlot(name)) ?? []), name]);
    for (const group of bySlot.values()) await acknowledged(shard.client.ssubscribe(...group));
    await acknowledged(shard.client.ping());
  }

  /**
   * SSUBSCRIBEs `names` on `shard`. When the shard does not take them (a node just restarted, whose
   * cluster is not yet OK again; a slot on the move), it tries again a little later and then resyncs
   * them, since they may have missed payloads meanwhile; a shard that does not answer at all is
   * reconnected, which subscribes every channel of it again (and resyncs them) once it is ready.
   */
  function subscribeOn(shard: Shard, names: string[]): Promise<void> {
    const subscribed = confirm(shard, names);
    subscribed.catch((error: Error) => {
      logger.warn(`[live] Redis Cluster node ${shard.node} did not take a subscription (${error.message})`);
      if (timedOut(error)) return shard.client.disconnect(true);
      commands.refreshSlotsCache();
      setTimeout(
        () => {
          const still = names.filter((name) => shard.channels.has(name));
          if (!still.length || shard.client.status !== "ready") return;
          subscribeOn(shard, still).then(
            () => handlers.resync(still),
            () => undefined,
          );
        },
        RETRY_MS * (1 + Math.random()),
      ).unref();
    });
    return subscribed;
  }

  function shardOf(node: string): Shard {
    const known = shards.get(node);
    if (known) return known;
    const at = node.lastIndexOf(":");
    const client = new Redis({ ...options, host: node.slice(0, at), port: Number(node.slice(at + 1)) });
    const shard: Shard = { node, client, channels: new Set() };
    shards.set(node, shard);
    client.on("error", (error: Error) => logger.warn(`[live] Redis Cluster subscriber ${node}: ${error.message}`));
    client.on("smessage", (channel: string, raw: string) => {
      const message = unframe(origin, channel, raw);
      if (message) handlers.deliver(channel, message.payload);
    });
    // A MOVED answer to SSUBSCRIBE: the slot has another master now.
    client.on("moved", () => commands.refreshSlotsCache());
    client.on("ready", () => {
      const names = [...shard.channels];
      if (!names.length) return;
      const subscribed = subscribeOn(shard, names);
      for (const name of names) subscriptions.get(name)!.subscribed = subscribed;
      subscribed.then(
        () => handlers.resync(names),
        () => undefined,
      );
    });
    return shard;
  }

  /**
   * Puts a channel on its slot's master. True once it is subscribed there; false when that cannot be
   * now (the shard is connecting, or the slots are not known yet): it is then subscribed, and its
   * listeners resynced, when the shard is ready or the slots are known.
   */
  async function place(name: string, subscription: Subscription): Promise<boolean> {
    const node = masterOf(name);
    const shard = node ? shardOf(node) : null;
    subscription.shard = shard;
    shard?.channels.add(name);
    if (shard?.client.status !== "ready") {
      subscription.subscribed = Promise.resolve();
      return false;
    }
    subscription.subscribed = subscribeOn(shard, [name]);
    await subscription.subscribed;
    return true;
  }

  // The slots were read again: channels whose slot has another master move there, and resync.
  commands.on("refresh", () => {
    const moved: Promise<string | null>[] = [];
    for (const [name, subscription] of subscriptions) {
      const node = masterOf(name);
      if (!node || subscription.shard?.node === node) continue;
      const previous = subscription.shard;
      previous?.channels.delete(name);
      if (previous?.client.status === "ready") previous.client.sunsubscribe(name).catch(() => undefined);
      moved.push(place(name, subscription).then((live) => (live ? name : null)));
    }
    // Those placed on a shard not yet ready are resynced by its ready handler; failed ones by the retry.
    const resynced = (names: (string | null)[]) => names.filter((name): name is string => name !== null);
    if (moved.length)
      void Promise.all(moved).then(
        (names) => handlers.resync(resynced(names)),
        () => undefined,
      );
    for (const [node, shard] of shards) {
      if (shard.channels.size || commands.slots.some((owners) => owners[0] === node)) continue;
      shard.client.disconnect();
      shards.delete(node);
    }
  });

  // Silence on a ready subscriber connection is only noticed by asking: a PING on each, now and then.
  const heartbeat = setInterval(
    () => {
      for (const shard of shards.values()) {
        if (shard.client.status !== "ready") continue;
        acknowledged(shard.client.ping()).catch((error: Error) => timedOut(error) && shard.client.disconnect(true));
      }
    },
    Math.max(commandTimeoutMs, 500),
  );
  heartbeat.unref();

  return {
    publish(channel, payload) {
      commands.spublish(channel, frame(origin, payload)).then(outcomes.sent, outcomes.failed);
    },

    async subscribe(channel) {
      const known = subscriptions.get(channel);
      if (known) {
        known.listeners++;
        return known.subscribed.catch(() => undefined);
      }
      const subscription: Subscription = { listeners: 1, shard: null, subscribed: Promise.resolve() };
      subscriptions.set(channel, subscription);
      await place(channel, subscription).catch(() => undefined);
    },

    unsubscribe(channel) {
      const subscription = subscriptions.get(channel);
      if (!subscription || --subscription.listeners > 0) return;
      subscriptions.delete(channel);
      const shard = subscription.shard;
      shard?.channels.delete(channel);
      if (shard?.client.status === "ready") shard.client.sunsubscribe(channel).catch(() => undefined);
    },

    commands,

    async close() {
      clearInterval(heartbeat);
      unreport();
      for (const shard of shards.values()) shard.client.disconnect();
      await (commands.status === "ready" ? commands.quit().catch(() => commands.disconnect()) : commands.disconnect());
    },
  };
}
