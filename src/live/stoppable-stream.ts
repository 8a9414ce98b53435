// A subscription's stream as an async generator that stops at once. A generator waiting for its
// next payload cannot be returned until one arrives; here return() stops the signal first, which
// the generator uses to end its wait (it returns the live queue it reads, ending its for-await).
// Chosen over a Repeater for the streams every subscriber of a dialog runs: a generator's yield
// costs one native promise, a Repeater push several promises and closures per subscriber per delta.
// The signal is a plain object, not an AbortController: aborting one builds a DOMException (with
// its stack trace) and dispatches a DOM event, which profiled as a third of what a subscriber's
// close cost when 10,000 sockets closed at once.
const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** Says whether the stream was stopped, and calls back once when it is. */
export class StopSignal {
  aborted = false;
  #onStop: (() => unknown)[] = [];

  /** Calls `stop` when the stream stops (at once if it has). */
  onStop(stop: () => unknown) {
    if (this.aborted) stop();
    else this.#onStop.push(stop);
  }

  stop() {
    if (this.aborted) return;
    this.aborted = true;
    const callbacks = this.#onStop;
    this.#onStop = [];
    for (const stop of callbacks) stop();
  }
}

export function stoppableStream<T>(produce: (signal: StopSignal) => AsyncGenerator<T>): AsyncIterableIterator<T> {
  const signal = new StopSignal();
  const generator = produce(signal);
  const stream: AsyncIterableIterator<T> = {
    next: () => (signal.aborted ? Promise.resolve(DONE) : generator.next()),
    return: () => {
      signal.stop();
      // Runs the generator's finally blocks once its current step (a database read) is over.
      generator.return(undefined).catch(() => undefined);
      return Promise.resolve(DONE);
    },
    [Symbol.asyncIterator]: () => stream,
  };
  return stream;
}

/** Calls `stop` when `signal` stops (at once if it has). */
export function onAbort(signal: StopSignal, stop: () => unknown) {
  signal.onStop(stop);
}
