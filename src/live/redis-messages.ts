// What the two Redis fan-outs (one server: redis-fanout.ts; a cluster: redis-cluster-fanout.ts)
// share: the connection every other user of Redis is handed, the framing of a message between
// instances, and the timeout every wait on Redis gets.
import type { Cluster, Redis } from "ioredis";
import { logger } from "../logger.js";

/** The command connection: one server, or a cluster that routes each key to its slot's node. */
export type RedisCommands = Redis | Cluster;

export interface RedisFanoutHandlers {
  /** A message another instance published. */
  deliver(channel: string, message: unknown): void;
  /** Redis came back: payloads on these channels (or on every channel: "all") may have been missed. */
  resync(channels: string[] | "all"): void;
}

export interface RedisFanoutOptions {
  /** How long any Redis command may take before it fails (and the connection counts as lost). */
  commandTimeoutMs: number;
}

export interface RedisFanout {
  publish(channel: string, payload: unknown): void;
  /**
   * Resolves once messages on `channel` from other instances will arrive — or at once when Redis
   * is unreachable, since the channel is then subscribed (and its listeners resynced) on reconnect.
   */
  subscribe(channel: string): Promise<void>;
  unsubscribe(channel: string): void;
  /** A command connection for other users of Redis (rate limits, in-flight text), failing fast while it is down. */
  commands: RedisCommands;
  close(): Promise<void>;
}

/**
 * Options of a subscriber connection: as every connection's, but without ioredis' own command
 * timeout, whose timer fails a command whose answer arrived but was not read yet on a busy loop
 * (see withTimeout, which bounds every wait on such a connection instead).
 */
export const subscriberConnectionOptions = (commandTimeoutMs: number) => {
  const { commandTimeout: _ignored, ...options } = connectionOptions(commandTimeoutMs);
  return options;
};

/** Options of every connection: fail fast while Redis is away, never queue, never resend. */
export const connectionOptions = (commandTimeoutMs: number) => ({
  enableOfflineQueue: false,
  autoResubscribe: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 1,
  commandTimeout: commandTimeoutMs,
  // A stalled server accepts the TCP connection but never answers the ready check.
  connectTimeout: Math.max(commandTimeoutMs, 1_000),
});

/**
 * Resolves once `client` is ready, or after `ms` when it is not (Redis away at start: the instance
 * starts degraded and falls back as it does when Redis goes away later). Never rejects.
 */
export function readyWithin(client: RedisCommands, ms: number): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.once("ready", done);
  });
}

export const TIMED_OUT = "Command timed out";
export const timedOut = (error: Error) => error.message === TIMED_OUT;

/**
 * `promise`, or a failure after `ms` (subscriptions have no command timeout of their own in ioredis).
 *
 * The verdict waits for the event loop to read what arrived: after a busy stretch of the loop (a
 * connect storm's start-up work) the expired timer runs before the loop reads its sockets, so an
 * answer that came in time but was not read yet would count as a timeout — and a subscriber
 * connection that "timed out" is dropped and every channel of it resubscribed and resynced, which
 * is more work for the loop that was late already. So when the timer fires, the failure is decided
 * in the loop's check phase (setImmediate), after its poll phase has read the sockets.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let verdict: NodeJS.Immediate | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => (verdict = setImmediate(() => reject(new Error(TIMED_OUT)))), ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
    if (verdict) clearImmediate(verdict);
  });
}

/** Each message names the instance that sent it: an instance ignores its own, delivered locally already. */
export const frame = (origin: string, payload: unknown) => JSON.stringify({ origin, payload });

export function unframe(origin: string, channel: string, raw: string): { payload: unknown } | null {
  let message: { origin?: string; payload?: unknown };
  try {
    message = JSON.parse(raw);
  } catch {
    logger.warn(`[live] ignored a malformed Redis message on ${channel}`);
    return null;
  }
  return message.origin === origin ? null : { payload: message.payload };
}

/** Logs a failing publish once, and its recovery once. */
export function publishOutcomes(onTimeout: () => void) {
  let failing = false;
  return {
    sent() {
      if (failing) logger.info("[live] Redis publishing again");
      failing = false;
    },
    failed(error: Error) {
      if (timedOut(error)) onTimeout();
      if (!failing) logger.warn(`[live] Redis publish failed (${error.message}); delivering locally only`);
      failing = true;
    },
  };
}

/**
 * Silence on a ready connection is only noticed by asking: a PING on each of `connections()` now
 * and then; `onSilent` is told of one that did not answer within the command timeout. Returns the
 * stop.
 */
export function startHeartbeat(
  connections: () => Iterable<Redis>,
  commandTimeoutMs: number,
  onSilent: (connection: Redis) => void,
) {
  const heartbeat = setInterval(
    () => {
      for (const connection of connections()) {
        if (connection.status !== "ready") continue;
        withTimeout(connection.ping(), commandTimeoutMs).catch(
          (error: Error) => timedOut(error) && onSilent(connection),
        );
      }
    },
    Math.max(commandTimeoutMs, 500),
  );
  heartbeat.unref();
  return () => clearInterval(heartbeat);
}
