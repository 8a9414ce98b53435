// A subscription's stream says when it has started: its start-up reads are done and it waits for
// live payloads. Most streams show it by their first result; a history stream that starts live
// (nothing to replay, no text in flight) sends nothing until the next write, so it says it here.
// Whoever paces subscription starts (src/connections/subscription-pacing.ts) listens, keyed by the
// subscription's GraphQL context.
const listeners = new WeakMap<object, () => void>();

/** Calls `listener` once, when the stream of the subscription whose context is `context` has started. */
export function onStreamLive(context: object, listener: () => void) {
  listeners.set(context, listener);
}

/** The stream of the subscription whose context is `context` has started. */
export function streamIsLive(context: object) {
  const listener = listeners.get(context);
  if (!listener) return;
  listeners.delete(context);
  listener();
}
