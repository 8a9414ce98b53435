// The subscriber side of the Redis Cluster fan-out (redis-cluster-fanout.ts): one subscriber
// connection per master this instance has channels on (a shard), each channel SSUBSCRIBEd on its
// slot's master, and the channels moved, subscribed again and their listeners resynced when a
// shard reconnects or the slots move.
import calculateSlot from "cluster-key-slot";
import { type Cluster, Redis, type RedisOptions } from "ioredis";
import { logger } from "../logger.js";
import { type RedisFanout, type RedisFanoutHandlers, timedOut, unframe, withTimeout } from "./redis-messages.js";
import { runAsNobody } from "../db/tenant-work.js";

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

/** How long before a subscription a node refused is asked for again (plus up to as much jitter). */
const RETRY_MS = 250;

export interface ShardSubscriberOptions {
  /** This instance's name on its messages (it ignores its own). */
  origin: string;
  /** Each subscriber connection's options (redis-messages.ts, subscriberConnectionOptions). */
  options: RedisOptions;
  handlers: RedisFanoutHandlers;
  commandTimeoutMs: number;
}

/** The subscriber connections of this instance on a Redis Cluster, one per master (a shard). */
export class ShardSubscribers implements Pick<RedisFanout, "subscribe" | "unsubscribe"> {
  readonly #shards = new Map<string, Shard>();
  readonly #subscriptions = new Map<string, Subscription>();

  constructor(
    private readonly commands: Cluster,
    private readonly settings: ShardSubscriberOptions,
  ) {}

  subscribe = async (channel: string) => {
    const known = this.#subscriptions.get(channel);
    if (known) {
      known.listeners++;
      return known.subscribed.catch(() => undefined);
    }
    const subscription: Subscription = { listeners: 1, shard: null, subscribed: Promise.resolve() };
    this.#subscriptions.set(channel, subscription);
    await this.#place(channel, subscription).catch(() => undefined);
  };

  unsubscribe = (channel: string) => {
    const subscription = this.#subscriptions.get(channel);
    if (!subscription || --subscription.listeners > 0) return;
    this.#subscriptions.delete(channel);
    const shard = subscription.shard;
    shard?.channels.delete(channel);
    if (shard?.client.status === "ready") shard.client.sunsubscribe(channel).catch(() => undefined);
  };

  /** The slots were read again: channels whose slot has another master move there, and resync. */
  followSlots() {
    const moved: Promise<string | null>[] = [];
    for (const [name, subscription] of this.#subscriptions) {
      const node = this.#masterOf(name);
      if (!node || subscription.shard?.node === node) continue;
      const previous = subscription.shard;
      previous?.channels.delete(name);
      if (previous?.client.status === "ready") previous.client.sunsubscribe(name).catch(() => undefined);
      moved.push(this.#place(name, subscription).then((live) => (live ? name : null)));
    }
    // Those placed on a shard not yet ready are resynced by its ready handler; failed ones by the retry.
    const resynced = (names: (string | null)[]) => names.filter((name): name is string => name !== null);
    if (moved.length)
      void Promise.all(moved).then(
        (names) => this.settings.handlers.resync(resynced(names)),
        () => undefined,
      );
    for (const [node, shard] of this.#shards) {
      if (shard.channels.size || this.commands.slots.some((owners) => owners[0] === node)) continue;
      shard.client.disconnect();
      this.#shards.delete(node);
    }
  }

  /** The subscriber connections, one per shard. */
  connections = () => [...this.#shards.values()].map((shard) => shard.client);

  disconnect() {
    for (const shard of this.#shards.values()) shard.client.disconnect();
  }

  #masterOf(channel: string): string | null {
    return this.commands.slots[calculateSlot(channel)]?.[0] ?? null;
  }

  #acknowledged<T>(promise: Promise<T>) {
    return withTimeout(promise, this.settings.commandTimeoutMs);
  }

  /** SSUBSCRIBE (one slot's channels per call, as Redis requires), then a PING: the PONG means they are live. */
  async #confirm(shard: Shard, names: string[]) {
    const bySlot = new Map<number, string[]>();
    for (const name of names) bySlot.set(calculateSlot(name), [...(bySlot.get(calculateSlot(name)) ?? []), name]);
    for (const group of bySlot.values()) await this.#acknowledged(shard.client.ssubscribe(...group));
    await this.#acknowledged(shard.client.ping());
  }

  /**
   * SSUBSCRIBEs `names` on `shard`. When the shard does not take them (a node just restarted, whose
   * cluster is not yet OK again; a slot on the move), it tries again a little later and then resyncs
   * them, since they may have missed payloads meanwhile; a shard that does not answer at all is
   * reconnected, which subscribes every channel of it again (and resyncs them) once it is ready.
   */
  #subscribeOn(shard: Shard, names: string[]): Promise<void> {
    const subscribed = this.#confirm(shard, names);
    subscribed.catch((error: Error) => {
      logger.warn(`[live] Redis Cluster node ${shard.node} did not take a subscription (${error.message})`);
      if (timedOut(error)) return shard.client.disconnect(true);
      this.commands.refreshSlotsCache();
      setTimeout(
        () => {
          const still = names.filter((name) => shard.channels.has(name));
          if (!still.length || shard.client.status !== "ready") return;
          this.#subscribeOn(shard, still).then(
            () => this.settings.handlers.resync(still),
            () => undefined,
          );
        },
        RETRY_MS * (1 + Math.random()),
      ).unref();
    });
    return subscribed;
  }

  #shardOf(node: string): Shard {
    const known = this.#shards.get(node);
    if (known) return known;
    const { origin, options, handlers } = this.settings;
    const at = node.lastIndexOf(":");
    const client = new Redis({ ...options, host: node.slice(0, at), port: Number(node.slice(at + 1)) });
    const shard: Shard = { node, client, channels: new Set() };
    this.#shards.set(node, shard);
    client.on("error", (error: Error) => logger.warn(`[live] Redis Cluster subscriber ${node}: ${error.message}`));
    client.on("smessage", (channel: string, raw: string) => {
      const message = unframe(origin, channel, raw);
      // Nobody's work: whichever request opened this connection, its messages serve every tenant.
      if (message) runAsNobody(() => handlers.deliver(channel, message.payload));
    });
    // A MOVED answer to SSUBSCRIBE: the slot has another master now.
    client.on("moved", () => this.commands.refreshSlotsCache());
    client.on("ready", () => {
      const names = [...shard.channels];
      if (!names.length) return;
      const subscribed = this.#subscribeOn(shard, names);
      for (const name of names) this.#subscriptions.get(name)!.subscribed = subscribed;
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
  async #place(name: string, subscription: Subscription): Promise<boolean> {
    const node = this.#masterOf(name);
    const shard = node ? this.#shardOf(node) : null;
    subscription.shard = shard;
    shard?.channels.add(name);
    if (shard?.client.status !== "ready") {
      subscription.subscribed = Promise.resolve();
      return false;
    }
    subscription.subscribed = this.#subscribeOn(shard, [name]);
    await subscription.subscribed;
    return true;
  }
}
