// One operation per key at a time, in call order: the in-flight text of one response takes its
// deltas, commits and lifecycle writes one after another in this process (the held texts' own
// position checks cover other processes).
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.#tails.set(key, settled);
    void settled.then(() => this.#tails.get(key) === settled && this.#tails.delete(key));
    return next;
  }
}
