// What the subscriber load processes (bench/load/*-subscribers.ts) keep: when each delta arrived
// and how often each subscriber saw it, so a run reports delivery latencies and the
// (subscriber, delta) pairs that were missing or repeated. Deltas are keyed by a number (a seq, a
// text offset).
import { summarize } from "./stats.js";

const now = () => performance.timeOrigin + performance.now();

export function createDeliveryTally(subscribers: number) {
  const arrivals = new Map<number, number[]>();
  const seen = Array.from({ length: subscribers }, () => new Map<number, number>());
  return {
    /** Counts `key` as seen by subscriber `index`; returns how often it had been seen before. */
    see(index: number, key: number): number {
      const count = seen[index]!.get(key) ?? 0;
      seen[index]!.set(key, count + 1);
      return count;
    },
    /** Notes that a delta `key` arrived now (once per subscriber that got it). */
    arrive(key: number) {
      let times = arrivals.get(key);
      if (!times) arrivals.set(key, (times = []));
      times.push(now());
    },
    /** How many times `key` has arrived so far (over every subscriber). */
    arrivals: (key: number) => arrivals.get(key)?.length ?? 0,
    /** Latencies from when each delta left (`sentAt`), and pairs missing or repeated. */
    report(sentAt: Map<number, number>) {
      const latencies: number[] = [];
      let lost = 0;
      let duplicated = 0;
      for (const [key, at] of sentAt) {
        for (const time of arrivals.get(key) ?? []) latencies.push(time - at);
        for (const perSubscriber of seen) {
          const count = perSubscriber.get(key) ?? 0;
          if (count === 0) lost++;
          if (count > 1) duplicated += count - 1;
        }
      }
      return { ...summarize(latencies), lost, duplicated };
    },
  };
}

/**
 * Opens `count` sockets in batches, each once the previous one is live (`live()` counts them, up
 * to 30 s a batch), so neither the server's accept queue nor its start-of-subscription reads are
 * flooded.
 */
export async function openInBatches(count: number, open: (index: number) => void, live: () => number) {
  const BATCH = 200;
  for (let i = 0; i < count; i += BATCH) {
    const upTo = Math.min(count, i + BATCH);
    for (let j = i; j < upTo; j++) open(j);
    for (let waited = 0; live() < upTo && waited < 30_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
