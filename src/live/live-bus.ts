// The live fan-out of committed writes. Payloads are small JSON (ids, seqs, status): subscribers
// re-read what they show from the database, so a payload can be lost, repeated or reordered
// without a subscriber ever showing wrong data (src/live/history-delta-stream.ts repairs gaps).
// In-process by default; with REDIS_URL every instance publishes to and listens on Redis, so a
// write on any instance reaches subscribers on all of them.
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { createPubSub, type PubSubEvent, Repeater, SlidingBuffer } from "graphql-yoga";
import { Redis } from "ioredis";
import type { ResponseStatus } from "../generated/prisma/enums.js";

/** What one committed write changed, as published. */
export interface DeltaPayload {
  dialogId: string;
  responseId: string;
  /** The dialog's last seq before the write and after it (equal for a status-only write). */
  previousSeq: number;
  seq: number;
  /** The response's status once the write committed. */
  status: ResponseStatus;
}

type Topics = {
  historyDelta: [dialogId: string, payload: DeltaPayload];
  responseUpdated: [responseId: string, payload: DeltaPayload];
};

export interface LiveBus {
  /** Call only after the write committed. */
  publish(write: DeltaPayload): void;
  /**
   * Payloads for one dialog or response. Resolves once the listener is in place (with Redis:
   * once the channel subscription is acknowledged), so a caller can read the database afterwards
   * knowing every later write will also arrive here.
   */
  listen(topic: keyof Topics, id: string): Promise<AsyncIterableIterator<DeltaPayload>>;
  close(): Promise<void>;
}

// A subscriber that stops reading keeps at most this many payloads; older ones are dropped and
// the history stream refills the hole from the database when it notices the gap.
const LISTENER_BUFFER = 10_000;

export function createLiveBus(options: { redisUrl?: string | null } = {}): LiveBus {
  const redis = options.redisUrl ? connectRedis(options.redisUrl) : null;
  const eventTarget = redis
    ? createRedisEventTarget<PubSubEvent<Topics, keyof Topics>>({
        publishClient: redis.publisher,
        subscribeClient: redis.subscriber,
      })
    : new EventTarget();
  const pubSub = createPubSub<Topics>({ eventTarget });

  return {
    publish(write) {
      const payload: DeltaPayload = {
        dialogId: write.dialogId,
        responseId: write.responseId,
        previousSeq: write.previousSeq,
        seq: write.seq,
        status: write.status,
      };
      pubSub.publish("historyDelta", payload.dialogId, payload);
      pubSub.publish("responseUpdated", payload.responseId, payload);
    },

    // Not pubSub.subscribe(): its repeaters share one buffer option and register their listener
    // lazily, on the first next(); a resumable stream needs the listener in place before it reads.
    async listen(topic, id) {
      const channel = `${topic}:${id}`;
      let registered!: () => void;
      const ready = new Promise<void>((resolve) => (registered = resolve));
      const payloads = new Repeater<DeltaPayload>(async (push, stop) => {
        const listener = (event: Event) => void push((event as CustomEvent<DeltaPayload>).detail);
        eventTarget.addEventListener(channel, listener);
        registered();
        await stop;
        eventTarget.removeEventListener(channel, listener);
      }, new SlidingBuffer(LISTENER_BUFFER));
      // The executor runs on the first next(): take that call now and hand its result out first.
      let started: Promise<IteratorResult<DeltaPayload>> | null = payloads.next();
      await ready;
      // Redis answers commands on a connection in order: the PING reply comes after SUBSCRIBE's.
      if (redis) await redis.subscriber.ping();
      const iterator: AsyncIterableIterator<DeltaPayload> = {
        next: () => {
          const result = started ?? payloads.next();
          started = null;
          return result;
        },
        return: () => payloads.return(),
        [Symbol.asyncIterator]: () => iterator,
      };
      return iterator;
    },

    async close() {
      if (redis) await Promise.all([redis.publisher.quit(), redis.subscriber.quit()]);
    },
  };
}

function connectRedis(url: string) {
  // Retry forever instead of failing a command: the event target does not await its publish and
  // subscribe calls, so a rejected one would be an unhandled rejection. A payload delivered late
  // is harmless; one lost while Redis was away is refilled from the database at the next delta.
  const options = { maxRetriesPerRequest: null, lazyConnect: false };
  return { publisher: new Redis(url, options), subscriber: new Redis(url, options) };
}
