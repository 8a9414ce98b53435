// The Redis half of the live bus on one Redis server (REDIS_URL): carries payloads between
// instances (a cluster: redis-cluster-fanout.ts). Built to keep working, not to be perfect, while
// Redis is away:
// - Commands never queue while Redis is down (a long outage would grow the queue without bound);
//   a publish that cannot be sent is dropped, and the payloads an instance missed are found again
//   in the database (see `resync`).
// - Channels are tracked here, not by ioredis, so that once they are subscribed again after a
//   reconnect (and Redis has acknowledged it) every listener is told to `resync`: re-read what it
//   may have missed, as a client resuming with afterSeq would.
// - Each message names the instance that sent it; an instance ignores its own, since it delivered
//   them locally already.
// - Every command has a timeout (`commandTimeoutMs`): a Redis that stops answering without closing
//   the connection (a stopped process, a network partition) fails calls in that time instead of
//   holding them. A timed-out command, or a heartbeat PING that goes unanswered, is treated like a
//   lost connection: both connections are dropped and reconnected, which brings the rate limiter
//   to its in-process fallback (the connection is no longer ready) and, once Redis answers again,
//   every listener a resync.
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { logger } from "../logger.js";
import { reportRedisConnection } from "../metrics.js";
import {
  connectionOptions,
  frame,
  publishOutcomes,
  startHeartbeat,
  subscriberConnectionOptions,
  type RedisFanout,
  type RedisFanoutHandlers,
  type RedisFanoutOptions,
  unframe,
  withTimeout,
} from "./redis-messages.js";
import { runAsNobody } from "../db/tenant-work.js";

export function createRedisFanout(
  url: string,
  handlers: RedisFanoutHandlers,
  { commandTimeoutMs }: RedisFanoutOptions,
): RedisFanout {
  const origin = randomUUID();
  const publisher = new Redis(url, connectionOptions(commandTimeoutMs));
  const subscriber = new Redis(url, subscriberConnectionOptions(commandTimeoutMs));
  const unreport = reportRedisConnection(() => publisher.status === "ready" && subscriber.status === "ready");
  for (const [name, client] of [
    ["publisher", publisher],
    ["subscriber", subscriber],
  ] as const) {
    client.on("error", (error: Error) => logger.warn(`[live] Redis ${name}: ${error.message}`));
  }
  const stalled = reconnectWhenStalled(publisher, subscriber, commandTimeoutMs);
  const stopHeartbeat = startHeartbeat(
    () => [publisher, subscriber],
    commandTimeoutMs,
    () => stalled("a heartbeat"),
  );
  const outcomes = publishOutcomes(() => stalled("a publish"));
  const channels = subscriberChannels(subscriber, origin, handlers, commandTimeoutMs);

  return {
    publish(channel, payload) {
      publisher.publish(channel, frame(origin, payload)).then(outcomes.sent, outcomes.failed);
    },
    subscribe: channels.subscribe,
    unsubscribe: channels.unsubscribe,
    commands: publisher,

    async close() {
      stopHeartbeat();
      unreport();
      await Promise.all(
        [publisher, subscriber].map((client) =>
          client.status === "ready" ? client.quit().catch(() => client.disconnect()) : client.disconnect(),
        ),
      );
    },
  };
}

/**
 * What to call when Redis stopped answering on a connection that is still open: drop both
 * connections and reconnect (once, until the publisher is ready again).
 */
function reconnectWhenStalled(publisher: Redis, subscriber: Redis, commandTimeoutMs: number) {
  let reconnecting = false;
  publisher.on("ready", () => (reconnecting = false));
  return (what: string) => {
    if (reconnecting) return;
    reconnecting = true;
    logger.warn(
      `[live] Redis did not answer ${what} within ${commandTimeoutMs} ms; reconnecting (local delivery meanwhile)`,
    );
    publisher.disconnect(true);
    subscriber.disconnect(true);
  };
}

/**
 * The channels of the subscriber connection, each with how many listeners it has: the first
 * listener subscribes it, the last one unsubscribes it, and after a reconnect every one is
 * subscribed again and then every listener told to resync.
 */
function subscriberChannels(
  subscriber: Redis,
  origin: string,
  handlers: RedisFanoutHandlers,
  commandTimeoutMs: number,
): Pick<RedisFanout, "subscribe" | "unsubscribe"> {
  // A subscription Redis does not acknowledge within the command timeout is treated like one made
  // while Redis is down: it is made again, followed by a resync, when the connection is ready again.
  const acknowledged = <T>(promise: Promise<T>) => withTimeout(promise, commandTimeoutMs);
  /** channel → how many listeners, and when its SUBSCRIBE was acknowledged. */
  const channels = new Map<string, { listeners: number; subscribed: Promise<void> }>();

  /** SUBSCRIBE, then a PING: Redis answers in order, so the PONG means the channels are live. */
  async function confirmSubscription(names: string[]) {
    await acknowledged(subscriber.subscribe(...names));
    await acknowledged(subscriber.ping());
  }

  subscriber.on("message", (channel: string, raw: string) => {
    const message = unframe(origin, channel, raw);
    // Nobody's work (src/db/tenant-work.ts): whichever request opened this connection, its
    // messages serve every tenant.
    if (message) runAsNobody(() => handlers.deliver(channel, message.payload));
  });

  subscriber.on("ready", () => {
    if (!channels.size) return;
    const names = [...channels.keys()];
    const subscribed = confirmSubscription(names);
    for (const name of names) channels.get(name)!.subscribed = subscribed;
    subscribed
      .then(() => handlers.resync("all"))
      .catch((error: Error) => logger.warn(`[live] resubscribing after a Redis reconnect failed: ${error.message}`));
  });

  return {
    async subscribe(channel) {
      const known = channels.get(channel);
      if (known) {
        known.listeners++;
        return known.subscribed.catch(() => undefined);
      }
      const entry = { listeners: 1, subscribed: Promise.resolve() };
      channels.set(channel, entry);
      if (subscriber.status !== "ready") return;
      entry.subscribed = confirmSubscription([channel]);
      await entry.subscribed.catch(() => undefined);
    },

    unsubscribe(channel) {
      const entry = channels.get(channel);
      if (!entry || --entry.listeners > 0) return;
      channels.delete(channel);
      if (subscriber.status === "ready") subscriber.unsubscribe(channel).catch(() => undefined);
    },
  };
}
