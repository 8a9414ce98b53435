// The Redis half of the live bus: carries payloads between instances. Built to keep working, not
// to be perfect, while Redis is away:
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

export interface RedisFanoutOptions {
  /** How long any Redis command may take before it fails (and the connection counts as lost). */
  commandTimeoutMs: number;
}

export interface RedisFanoutHandlers {
  /** A message another instance published. */
  deliver(channel: string, message: unknown): void;
  /** Redis came back: payloads may have been missed since it went away. */
  resync(): void;
}

export function createRedisFanout(
  url: string,
  handlers: RedisFanoutHandlers,
  { commandTimeoutMs }: RedisFanoutOptions,
) {
  const origin = randomUUID();
  const options = {
    enableOfflineQueue: false,
    autoResubscribe: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
    // A stalled server accepts the TCP connection but never answers the ready check.
    connectTimeout: Math.max(commandTimeoutMs, 1_000),
  };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  const unreport = reportRedisConnection(() => publisher.status === "ready" && subscriber.status === "ready");

  // A subscription Redis does not acknowledge within the command timeout is treated like one made
  // while Redis is down: it is made again, followed by a resync, when the connection is ready again.
  const withTimeout = <T>(promise: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("Command timed out")), commandTimeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };

  let reconnecting = false;
  /** Redis stopped answering on a connection that is still open: drop both and reconnect. */
  const stalled = (what: string) => {
    if (reconnecting) return;
    reconnecting = true;
    logger.warn(
      `[live] Redis did not answer ${what} within ${commandTimeoutMs} ms; reconnecting (local delivery meanwhile)`,
    );
    publisher.disconnect(true);
    subscriber.disconnect(true);
  };
  publisher.on("ready", () => (reconnecting = false));
  const timedOut = (error: Error) => error.message === "Command timed out";
  // Silence on a ready connection is only noticed by asking: a PING on each, now and then.
  const heartbeat = setInterval(
    () => {
      for (const client of [publisher, subscriber]) {
        if (client.status === "ready")
          withTimeout(client.ping()).catch((error: Error) => timedOut(error) && stalled("a heartbeat"));
      }
    },
    Math.max(commandTimeoutMs, 500),
  );
  heartbeat.unref();
  /** channel → how many listeners, and when its SUBSCRIBE was acknowledged. */
  const channels = new Map<string, { listeners: number; subscribed: Promise<void> }>();
  let publishFailing = false;

  for (const [name, client] of [
    ["publisher", publisher],
    ["subscriber", subscriber],
  ] as const) {
    client.on("error", (error: Error) => logger.warn(`[live] Redis ${name}: ${error.message}`));
  }

  subscriber.on("message", (channel: string, raw: string) => {
    let message: { origin?: string; payload?: unknown };
    try {
      message = JSON.parse(raw);
    } catch {
      return logger.warn(`[live] ignored a malformed Redis message on ${channel}`);
    }
    if (message.origin !== origin) handlers.deliver(channel, message.payload);
  });

  subscriber.on("ready", () => {
    if (!channels.size) return;
    const names = [...channels.keys()];
    const subscribed = confirmSubscription(names);
    for (const name of names) channels.get(name)!.subscribed = subscribed;
    subscribed
      .then(() => handlers.resync())
      .catch((error: Error) => logger.warn(`[live] resubscribing after a Redis reconnect failed: ${error.message}`));
  });

  /** SUBSCRIBE, then a PING: Redis answers in order, so the PONG means the channels are live. */
  async function confirmSubscription(names: string[]) {
    await withTimeout(subscriber.subscribe(...names));
    await withTimeout(subscriber.ping());
  }

  return {
    publish(channel: string, payload: unknown) {
      publisher.publish(channel, JSON.stringify({ origin, payload })).then(
        () => {
          if (publishFailing) logger.info("[live] Redis publishing again");
          publishFailing = false;
        },
        (error: Error) => {
          if (timedOut(error)) stalled("a publish");
          if (!publishFailing) logger.warn(`[live] Redis publish failed (${error.message}); delivering locally only`);
          publishFailing = true;
        },
      );
    },

    /**
     * Resolves once messages on `channel` from other instances will arrive — or at once when Redis
     * is unreachable, since the channel is then subscribed (and listeners resynced) on reconnect.
     */
    async subscribe(channel: string) {
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

    unsubscribe(channel: string) {
      const entry = channels.get(channel);
      if (!entry || --entry.listeners > 0) return;
      channels.delete(channel);
      if (subscriber.status === "ready") subscriber.unsubscribe(channel).catch(() => undefined);
    },

    /** A command connection for other users of Redis (rate limits), failing fast while it is down. */
    commands: publisher,

    async close() {
      clearInterval(heartbeat);
      unreport();
      await Promise.all(
        [publisher, subscriber].map((client) =>
          client.status === "ready" ? client.quit().catch(() => client.disconnect()) : client.disconnect(),
        ),
      );
    },
  };
}

export type RedisFanout = ReturnType<typeof createRedisFanout>;
