// A subscription event that could not be delivered ends its subscription. historyDelta's promise
// is that a subscriber is never sent a delta whose previousSeq is ahead of what it was sent: its
// stream counts a write as sent when it hands it on, and if resolving it then fails (the database
// away, a budget exceeded) the subscriber gets an error in its place. Carrying on would send the
// next write as if the failed one had arrived. So the failed event is sent (with its error, as
// UNAVAILABLE for a database outage) and the subscription completes right after it; the client
// subscribes again with `afterSeq` = the last seq it has, and the replay brings what it missed.
// The same holds for every subscription, so the rule lives here, once, rather than in each stream.
import type { ExecutionResult } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";

export function useEndSubscriptionOnFailedEvent(): Plugin {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(endAfterFailedEvent(result as AsyncIterable<ExecutionResult>));
        },
      };
    },
  };
}

// Hand-written like src/live/map-stream.ts: return() reaches the source at once, and an event costs
// no promise beyond the source's own.
function endAfterFailedEvent(source: AsyncIterable<ExecutionResult>): AsyncIterableIterator<ExecutionResult> {
  const inner = source[Symbol.asyncIterator]();
  let ended = false;
  const done = (): IteratorResult<ExecutionResult> => ({ done: true, value: undefined });
  const stop = (value?: unknown) => {
    ended = true;
    return (inner.return?.(value) ?? Promise.resolve(done())).then(done, done);
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    next: () => {
      if (ended) return Promise.resolve(done());
      return inner.next().then((step) => {
        if (!step.done && step.value?.errors?.length) void stop();
        return step;
      });
    },
    return: stop,
    throw: (error?: unknown) =>
      (inner.throw?.(error) ?? Promise.reject(error)) as Promise<IteratorResult<ExecutionResult>>,
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
