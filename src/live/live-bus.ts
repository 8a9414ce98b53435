// The live fan-out of committed writes. Payloads are small JSON (ids, seqs, status): subscribers
// show what the database holds for them, so a payload can be lost, repeated or reordered without a
// subscriber ever showing wrong data (src/live/history-delta-stream.ts repairs gaps). Through Redis
// a delta also carries what its writer read of it (src/live/delta-carriage.ts), so the other
// instances need not read it back.
// Every payload is delivered in this process at once; with REDIS_URL (or REDIS_CLUSTER_NODES) it
// also goes through Redis to the other instances (src/live/redis-fanout.ts, redis-cluster-fanout.ts),
// so a Redis outage never stops same-instance subscribers, and after one the listeners of the
// channels it touched are told to resync from the database.
import { metrics } from "../metrics.js";
import type { PayloadQueue } from "./payload-queue.js";
import { createClusterFanout } from "./redis-cluster-fanout.js";
import { orderedSends } from "./ordered-sends.js";
import type { EndedTexts } from "./ended-texts.js";
import {
  type CommittedPayload,
  type CommittedWrite,
  type DeletedPayload,
  type DeltaRows,
  type TextPayload,
  type Topic,
  type ClearedPayload,
  type DeltaPayload,
  type LiveMessage,
  type ResponseDeletedPayload,
  type Resync,
  type NoticeHandler,
  isCleared,
  isDeleted,
  isResponseDeleted,
} from "./live-messages.js";
import { type LocalListeners, localListeners, NOTICES } from "./local-listeners.js";
import { createRedisFanout } from "./redis-fanout.js";
import { type RedisFanout, type RedisFanoutHandlers, readyWithin, withTimeout } from "./redis-messages.js";

// The messages' shapes live in live-messages.ts (so the listeners' module can use them); importers
// take them from here, with the bus.
export * from "./live-messages.js";
export { NOTICES } from "./local-listeners.js";

/** One listener's payloads; a caught-up reader may have them taken directly (src/live/direct-delivery.ts). */
export type Listener = AsyncIterableIterator<LiveMessage> &
  Pick<PayloadQueue<LiveMessage>, "takeDirectly"> & {
    /** The listener read the dialog's seq from the database: payloads up to it are no news, and
     * one that follows it need not wait (src/live/seq-order.ts). */
    committedUpTo(seq: number): void;
    /** Which texts of the dialog its live payloads show are over (src/live/ended-texts.ts). */
    endedTexts: EndedTexts;
  };

export interface LiveBus {
  /** Call only after the write committed. */
  publish(write: CommittedWrite): void;
  /** Text appended to an in-flight event; call only after the store took it. */
  publishText(text: TextPayload): void;
  /**
   * Payloads for one dialog or response. Resolves once the listener is in place (with Redis up:
   * once the channel subscription is acknowledged), so a caller can read the database afterwards
   * knowing every later write will also arrive here.
   */
  listen(topic: Topic, id: string): Promise<Listener>;
  /** Listeners of one dialog or response in this instance (what operations and tests look at). */
  listenerCount(topic: Topic, id: string): number;
  /** Sends `notice` to every instance, this one included. */
  broadcast(notice: unknown): void;
  onNotice(handler: NoticeHandler): void;
  /** Ends every listener (and so every subscription), keeping the bus open for publishing. */
  endListeners(): void;
  /** The Redis command connection when there is one (fails fast while Redis is down). */
  redis: RedisFanout["commands"] | null;
  /**
   * Resolves once the Redis command connection is ready (at once without Redis), or after the
   * connect timeout: a command sent before it would fail fast and fall back as if Redis were away.
   */
  connected(): Promise<void>;
  close(): Promise<void>;
}

// A delta's read that takes longer (a slow database) is not waited for: the delta goes as ids,
// and the dialog's later messages are not held behind it.
const CARRY_WAIT_MS = 5_000;

/**
 * A channel's name: its id in a hash tag, so that on a Redis Cluster the channel — and any key
 * named after the same id (src/live/in-flight-store.ts) — lives on the slot of that one id.
 */
const channelOf = (topic: Topic, id: string) => `${topic}:{${id}}`;

/**
 * What travels with a delta through Redis so other instances need not read it back
 * (src/live/delta-carriage.ts). Without one, deltas go as ids and each instance reads them.
 */
export interface DeltaCarriage {
  /** What to send with `payload`, or undefined for ids only (too large); asked once per write, by the writer. */
  attach(payload: DeltaPayload): Promise<unknown>;
  /**
   * The rows of `payload` as its write returned them: this instance's read of that delta (its
   * subscribers and attach() read nothing). Called before the delta is delivered or attached.
   */
  remember(payload: DeltaPayload, rows: DeltaRows): void;
  /** A delta from another instance arrived with what its writer attached. */
  receive(payload: DeltaPayload, carried: unknown): void;
}

const isCarrying = (message: unknown): message is DeltaPayload & { carried: unknown } =>
  typeof message === "object" && message !== null && "carried" in message;

export interface LiveBusOptions {
  redisUrl?: string | null;
  carriage?: DeltaCarriage;
  /** `host:port,…` of a Redis Cluster's nodes (REDIS_CLUSTER_NODES); takes the place of redisUrl. */
  redisClusterNodes?: string | null;
  /** How long a Redis command may take (REDIS_COMMAND_TIMEOUT_MS); 1 s when not given. */
  redisCommandTimeoutMs?: number;
  /** How long a dialog's payload waits for the ones before it (src/live/seq-order.ts); ORDER_HOLD_MS when not given. */
  orderHoldMs?: number;
}

/** A payload published out of order usually arrives within milliseconds of the one it follows;
 * later than this, it is taken as lost and the subscribers read the gap. */
export const ORDER_HOLD_MS = 100;

export function createLiveBus(options: LiveBusOptions = {}): LiveBus {
  const local = localListeners(options.orderHoldMs ?? ORDER_HOLD_MS);
  const redis = redisFanoutOf(options, redisHandlers(local, options.carriage));
  // Notices from other instances arrive for the life of the bus.
  void redis?.subscribe(NOTICES);

  const sendRemote = redis && orderedSends(redis);
  /** Delivers `message` here, and sends it (or what `remote` resolves to) to the other instances. */
  const send = (channel: string, message: unknown, remote: unknown = message) => {
    local.deliver(channel, message);
    sendRemote?.(channel, remote);
  };
  const { carriage } = options;
  /** What goes to the other instances with a delta: the delta, with what its writer read of it. */
  const carrying = (payload: DeltaPayload) =>
    redis && carriage
      ? withTimeout(carriage.attach(payload), CARRY_WAIT_MS).then(
          (carried) => (carried === undefined ? payload : { ...payload, carried }),
          () => payload,
        )
      : payload;

  return {
    publish(write) {
      const payload = publishedPayload(write);
      if (isDeleted(payload) || isCleared(payload)) return send(channelOf("historyDelta", payload.dialogId), payload);
      if (isResponseDeleted(payload)) {
        send(channelOf("historyDelta", payload.dialogId), payload);
        return send(channelOf("responseUpdated", payload.responseId), payload);
      }
      metrics.deltasPublished.inc();
      const history = channelOf("historyDelta", payload.dialogId);
      const updates = channelOf("responseUpdated", payload.responseId);
      // Kept (for a few seconds) only when something will read it: Redis's carriage, or a listener here.
      const read = redis || local.count(history) > 0 || local.count(updates) > 0;
      if (carriage && read && "delta" in write && write.delta) carriage.remember(payload, write.delta);
      send(history, payload, carrying(payload));
      send(updates, payload);
    },

    publishText(text) {
      send(channelOf("historyDelta", text.dialogId), { text });
    },

    // Not pubSub.subscribe(): its repeaters register their listener lazily, on the first next();
    // a resumable stream needs the listener in place before it reads the database.
    async listen(topic, id) {
      const channel = channelOf(topic, id);
      const payloads = local.add(channel, () => redis?.unsubscribe(channel));
      // Counted at once (the count is synchronous), so a return() that comes early releases it.
      await redis?.subscribe(channel);
      return Object.assign(payloads, {
        committedUpTo: (seq: number) => local.committedUpTo(channel, seq),
        endedTexts: local.endedTexts(channel),
      });
    },

    listenerCount: (topic, id) => local.count(channelOf(topic, id)),

    broadcast(notice) {
      send(NOTICES, notice);
    },

    onNotice: local.onNotice,

    endListeners() {
      for (const listener of local.everyListener()) void listener.return();
    },

    redis: redis?.commands ?? null,

    connected: async () => {
      if (redis) await readyWithin(redis.commands, Math.max(options.redisCommandTimeoutMs ?? 1_000, 1_000));
    },

    async close() {
      // Release every listener first: with Redis each release sends UNSUBSCRIBE, which must go
      // out before QUIT.
      await Promise.all(local.everyListener().map((listener) => listener.return()));
      await redis?.close();
    },
  };
}

/** Exactly what is published of a committed write (a caller's object may carry more). */
function publishedPayload(write: CommittedPayload): CommittedPayload {
  if ("deleted" in write) return { dialogId: write.dialogId, deleted: true } satisfies DeletedPayload;
  if ("responseDeleted" in write) {
    const { dialogId, responseId, previousSeq, seq } = write;
    return { dialogId, responseId, responseDeleted: true, previousSeq, seq } satisfies ResponseDeletedPayload;
  }
  if ("cleared" in write) {
    const { dialogId, previousSeq, seq } = write;
    return { dialogId, cleared: true, previousSeq, seq } satisfies ClearedPayload;
  }
  return {
    dialogId: write.dialogId,
    responseId: write.responseId,
    previousSeq: write.previousSeq,
    seq: write.seq,
    status: write.status,
    ...(write.endsTextPart != null && { endsTextPart: write.endsTextPart }),
  } satisfies DeltaPayload;
}

/** What the Redis fan-out does with what arrives from the other instances. */
function redisHandlers(local: LocalListeners, carriage: DeltaCarriage | undefined): RedisFanoutHandlers {
  return {
    deliver(channel, message) {
      if (!isCarrying(message)) return local.deliver(channel, message);
      const { carried, ...payload } = message;
      if (carriage) carriage.receive(payload, carried);
      local.deliver(channel, payload);
    },
    resync(channels) {
      // One object for all: the subscribers of a dialog share the reads of one resync by it.
      const resync: Resync = { resync: true };
      for (const channel of channels === "all" ? local.channels() : channels) local.deliver(channel, resync);
    },
  };
}

/** The Redis (or Redis Cluster) fan-out the options ask for, or null for this instance alone. */
function redisFanoutOf(options: LiveBusOptions, handlers: RedisFanoutHandlers): RedisFanout | null {
  const fanoutOptions = { commandTimeoutMs: options.redisCommandTimeoutMs ?? 1_000 };
  if (options.redisClusterNodes) return createClusterFanout(options.redisClusterNodes, handlers, fanoutOptions);
  return options.redisUrl ? createRedisFanout(options.redisUrl, handlers, fanoutOptions) : null;
}
