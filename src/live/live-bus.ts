// The live fan-out of committed writes. Payloads are small JSON (ids, seqs, status): subscribers
// show what the database holds for them, so a payload can be lost, repeated or reordered without a
// subscriber ever showing wrong data (src/live/history-delta-stream.ts repairs gaps). Through Redis
// a delta also carries what its writer read of it (src/live/delta-carriage.ts), so the other
// instances need not read it back.
// Every payload is delivered in this process at once; with REDIS_URL (or REDIS_CLUSTER_NODES) it
// also goes through Redis to the other instances (src/live/redis-fanout.ts, redis-cluster-fanout.ts),
// so a Redis outage never stops same-instance subscribers, and after one the listeners of the
// channels it touched are told to resync from the database.
import type { Event, Response } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { metrics } from "../metrics.js";
import { PayloadQueue } from "./payload-queue.js";
import { createClusterFanout } from "./redis-cluster-fanout.js";
import { orderedSends } from "./ordered-sends.js";
import { type Place, SeqOrder } from "./seq-order.js";
import { createRedisFanout } from "./redis-fanout.js";
import { type RedisFanout, type RedisFanoutHandlers, readyWithin, withTimeout } from "./redis-messages.js";

/** What one committed write changed, as published. */
export interface DeltaPayload {
  dialogId: string;
  responseId: string;
  /** The dialog's last seq before the write and after it (equal for a status-only write). */
  previousSeq: number;
  seq: number;
  /** The response's status once the write committed. */
  status: ResponseStatus;
  /** The write committed or dropped the response's in-flight text of this part (src/history-writes/). */
  endsTextPart?: number;
}

/** Text appended to an in-flight AI or reasoning event (src/history-writes/). */
export interface TextPayload {
  dialogId: string;
  responseId: string;
  /** The index the event will have among the response's events once committed. */
  part: number;
  type: "AI" | "REASONING";
  /** Where `delta` starts in the event's text (UTF-16 code units). */
  offset: number;
  delta: string;
}

export interface TextMessage {
  text: TextPayload;
}

/**
 * clearDialog committed: every event of the dialog up to `seq` is gone (the dialog's seq does not
 * move, so previousSeq = seq). A client drops what it holds and continues after `seq`.
 */
export interface ClearedPayload {
  dialogId: string;
  cleared: true;
  previousSeq: number;
  seq: number;
}

/**
 * A response was deleted (the Responses API's DELETE /v1/responses/{id}; only a response nobody
 * continues can be): it and its events are gone. No seq moves (previousSeq = seq = the dialog's
 * last seq). A client drops the response's events and its in-flight text.
 */
export interface ResponseDeletedPayload {
  dialogId: string;
  responseId: string;
  responseDeleted: true;
  previousSeq: number;
  seq: number;
}

/** deleteDialog committed: the dialog's streams end. */
export interface DeletedPayload {
  dialogId: string;
  deleted: true;
}

export const isDeleted = (message: LiveMessage): message is DeletedPayload => "deleted" in message;

export const isCleared = (message: LiveMessage): message is ClearedPayload => "cleared" in message;

export const isResponseDeleted = (message: LiveMessage): message is ResponseDeletedPayload =>
  "responseDeleted" in message;

/** Payloads may have been lost (Redis was away): re-read the current state from the database. */
export interface Resync {
  resync: true;
}

/** What a committed write publishes (src/history-writes/ is the one caller of publish). */
export type CommittedPayload = DeltaPayload | ClearedPayload | DeletedPayload | ResponseDeletedPayload;

/** A delta's events (in seq order) and its response's row, as the write that committed it returned them. */
export interface DeltaRows {
  events: Event[];
  response: Response;
}

/** What publish is given: the payload, and a delta's rows when its write returned them (never published as such). */
export type CommittedWrite = CommittedPayload & { delta?: DeltaRows };

export type LiveMessage = CommittedPayload | Resync | TextMessage;

export const isResync = (message: LiveMessage): message is Resync => "resync" in message;
export const isText = (message: LiveMessage): message is TextMessage => "text" in message;

export type Topic = "historyDelta" | "responseUpdated";

/** One listener's payloads; a caught-up reader may have them taken directly (src/live/direct-delivery.ts). */
export type Listener = AsyncIterableIterator<LiveMessage> &
  Pick<PayloadQueue<LiveMessage>, "takeDirectly"> & {
    /** The listener read the dialog's seq from the database: payloads up to it are no news, and
     * one that follows it need not wait (src/live/seq-order.ts). */
    committedUpTo(seq: number): void;
  };

/** Instance-wide notices that are not about one dialog (API key revocations). */
export type NoticeHandler = (notice: unknown) => void;

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

// A subscriber that stops reading keeps at most this many payloads; older ones are dropped and
// the history stream refills the hole from the database when it notices the gap.
const LISTENER_BUFFER = 10_000;
export const NOTICES = "dialogql:notices";
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
      return Object.assign(payloads, { committedUpTo: (seq: number) => local.committedUpTo(channel, seq) });
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

type LocalListeners = ReturnType<typeof localListeners>;

/** Where a message stands in its dialog's order (src/live/seq-order.ts). */
function placeOf(message: LiveMessage): Place {
  if (isText(message)) return "after";
  if (isResync(message)) return "resync";
  if (isDeleted(message)) return "flush";
  return message;
}

/** One channel's listeners; a dialog's (historyDelta) get its payloads in seq order. */
class Channel {
  readonly listeners = new Set<PayloadQueue<LiveMessage>>();
  readonly order: SeqOrder<LiveMessage> | null;

  constructor(topic: string, holdMs: number) {
    this.order = topic === "historyDelta" ? new SeqOrder(placeOf, (message) => this.handOn(message), holdMs) : null;
  }

  deliver(message: LiveMessage) {
    if (this.order) this.order.receive(message);
    else this.handOn(message);
  }

  handOn(message: LiveMessage) {
    for (const listener of this.listeners) listener.push(message);
  }
}

/** This instance's listeners, by channel, and its notice handlers. */
function localListeners(orderHoldMs: number) {
  // Every listener of a channel gets the same payload object (which is what lets subscribers
  // share one execution of it, src/server/shared-subscription-results.ts).
  const channels = new Map<string, Channel>();
  const noticeHandlers: NoticeHandler[] = [];
  return {
    deliver(channel: string, message: unknown) {
      if (channel === NOTICES) return noticeHandlers.forEach((handle) => handle(message));
      channels.get(channel)?.deliver(message as LiveMessage);
    },
    everyListener: () => [...channels.values()].flatMap((each) => [...each.listeners]),
    channels: () => [...channels.keys()],
    count: (channel: string) => channels.get(channel)?.listeners.size ?? 0,
    committedUpTo: (channel: string, seq: number) => channels.get(channel)?.order?.committedUpTo(seq),
    /** A new listener of `channel`; `released` is called when it returns. */
    add(channel: string, released: () => void): PayloadQueue<LiveMessage> {
      let listening = channels.get(channel);
      if (!listening)
        channels.set(channel, (listening = new Channel(channel.slice(0, channel.indexOf(":")), orderHoldMs)));
      const { listeners } = listening;
      const payloads: PayloadQueue<LiveMessage> = new PayloadQueue(LISTENER_BUFFER, () => {
        listeners.delete(payloads);
        if (!listeners.size && channels.get(channel) === listening) {
          channels.delete(channel);
          listening.order?.close();
        }
        released();
      });
      listeners.add(payloads);
      return payloads;
    },
    onNotice(handler: NoticeHandler) {
      noticeHandlers.push(handler);
    },
  };
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
