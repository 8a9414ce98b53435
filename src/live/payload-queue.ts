// One listener's payloads, waiting to be read. Thousands of listeners receive every payload of a
// busy dialog, so a push here is a few property writes and at most one promise, not the several
// promises and closures of a Repeater push (which profiled as the largest per-subscriber cost of
// the fan-out). Like a SlidingBuffer: a reader that falls `limit` payloads behind loses the oldest.
export class PayloadQueue<T> implements AsyncIterableIterator<T> {
  #buffered: T[] = [];
  #reader: ((result: IteratorResult<T>) => void) | null = null;
  #done = false;

  constructor(
    private readonly limit: number,
    /** Called once, when the reader stops (return()) or the queue is ended. */
    private readonly onEnd: () => void,
  ) {}

  push(value: T) {
    if (this.#done) return;
    const reader = this.#reader;
    if (reader) {
      this.#reader = null;
      reader({ value, done: false });
      return;
    }
    this.#buffered.push(value);
    if (this.#buffered.length > this.limit) this.#buffered.shift();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#buffered.length) return Promise.resolve({ value: this.#buffered.shift()!, done: false });
    if (this.#done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#reader = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.#done) {
      this.#done = true;
      this.#buffered = [];
      this.#reader?.({ value: undefined, done: true });
      this.#reader = null;
      this.onEnd();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
