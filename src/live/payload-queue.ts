// One listener's payloads, waiting to be read. Thousands of listeners receive every payload of a
// busy dialog, so a push here is a few property writes and at most one promise, not the several
// promises and closures of a Repeater push (which profiled as the largest per-subscriber cost of
// the fan-out). Like a SlidingBuffer: a reader that falls `limit` payloads behind loses the oldest.
// A payload that finds the reader waiting may be taken directly instead (src/live/direct-delivery.ts):
// until the taker releases it, later payloads wait here, and one it hands back comes first. Once
// released, the next one waiting is offered to the taker too, so a burst of payloads (Redis hands
// over several in one read) goes the direct way one after another, not just its first.
export class PayloadQueue<T> implements AsyncIterableIterator<T> {
  #buffered: T[] = [];
  #reader: ((result: IteratorResult<T>) => void) | null = null;
  #done = false;
  #direct: ((value: T, release: (handBack?: T) => void) => boolean) | null = null;
  #held = false;
  /** The payload at the front was handed back by the taker: the reader gets it. */
  #handedBack = false;
  #draining = false;

  constructor(
    private readonly limit: number,
    /** Called once, when the reader stops (return()) or the queue is ended. */
    private readonly onEnd: () => void,
  ) {}

  /** `take` is offered each payload that finds the reader waiting; it returns true to hold it, and
   * then calls `release` once (with the payload to hand it back to the reader). */
  takeDirectly(take: (value: T, release: (handBack?: T) => void) => boolean) {
    this.#direct = take;
  }

  push(value: T) {
    if (this.#done) return;
    this.#buffered.push(value);
    if (this.#buffered.length > this.limit) this.#buffered.shift();
    this.#drain();
  }

  #release = (handBack?: T) => {
    if (this.#done || !this.#held) return;
    this.#held = false;
    if (handBack !== undefined) {
      // The taker could not send it: it goes to the reader, as it would have without a taker.
      this.#buffered.unshift(handBack);
      this.#handedBack = true;
    }
    this.#drain();
  };

  /**
   * Hands what is buffered to the waiting reader, or, while the taker takes and sends at once, to
   * the taker one after another. One loop, not a recursion: a taker that sends at once releases
   * from within #direct, and that release only tells the loop to go on.
   */
  #drain() {
    if (this.#draining) return;
    this.#draining = true;
    try {
      while (this.#reader && !this.#held && this.#buffered.length) {
        const value = this.#buffered.shift()!;
        if (this.#direct && !this.#handedBack) {
          this.#held = true;
          if (this.#direct(value, this.#release)) continue;
          this.#held = false;
        }
        this.#handedBack = false;
        const reader = this.#reader;
        this.#reader = null;
        reader({ value, done: false });
      }
    } finally {
      this.#draining = false;
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#buffered.length) {
      this.#handedBack = false;
      return Promise.resolve({ value: this.#buffered.shift()!, done: false });
    }
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
