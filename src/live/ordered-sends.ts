// Sends to Redis in publishing order per channel, even when a message waits for what it carries
// (a delta's read, src/live/delta-carriage.ts): later messages of that channel wait behind it, so
// other instances see a dialog's deltas and texts in the order they were published.
import type { RedisFanout } from "./redis-messages.js";

export function orderedSends(redis: RedisFanout) {
  const pending = new Map<string, Promise<void>>();
  return (channel: string, message: unknown) => {
    const before = pending.get(channel);
    if (!before && !(message instanceof Promise)) return redis.publish(channel, message);
    const sent = (before ?? Promise.resolve()).then(async () => redis.publish(channel, await message));
    pending.set(channel, sent);
    void sent.finally(() => {
      if (pending.get(channel) === sent) pending.delete(channel);
    });
  };
}
