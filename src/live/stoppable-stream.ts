// A subscription's stream as an async generator that stops at once. A generator waiting for its
// next payload cannot be returned until one arrives; here return() aborts the signal first, which
// the generator uses to end its wait (it returns the live queue it reads, ending its for-await).
// Chosen over a Repeater for the streams every subscriber of a dialog runs: a generator's yield
// costs one native promise, a Repeater push several promises and closures per subscriber per delta.
const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export function stoppableStream<T>(produce: (signal: AbortSignal) => AsyncGenerator<T>): AsyncIterableIterator<T> {
  const controller = new AbortController();
  const generator = produce(controller.signal);
  const stream: AsyncIterableIterator<T> = {
    next: () => (controller.signal.aborted ? Promise.resolve(DONE) : generator.next()),
    return: () => {
      controller.abort();
      // Runs the generator's finally blocks once its current step (a database read) is over.
      generator.return(undefined).catch(() => undefined);
      return Promise.resolve(DONE);
    },
    [Symbol.asyncIterator]: () => stream,
  };
  return stream;
}

/** Calls `stop` when `signal` aborts (at once if it has). */
export function onAbort(signal: AbortSignal, stop: () => unknown) {
  if (signal.aborted) stop();
  else signal.addEventListener("abort", () => stop(), { once: true });
}
