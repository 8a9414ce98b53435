// Maps the values of a subscription stream. Hand-written rather than an async generator or
// @graphql-tools' mapAsyncIterator: return() must reach the source at once, even while a next()
// is still waiting, and a value mapped synchronously costs no promise beyond the source's own
// (this runs once per subscriber per delta).
export function mapStream<T, U>(
  source: AsyncIterable<T>,
  mapValue: (value: T) => U | Promise<U>,
  mapError: (error: unknown) => unknown = (error) => error,
): AsyncIterableIterator<U> {
  const inner = source[Symbol.asyncIterator]();
  const iterator: AsyncIterableIterator<U> = {
    next: () =>
      inner.next().then(
        (step): IteratorResult<U> | Promise<IteratorResult<U>> => {
          if (step.done) return step;
          const value = mapValue(step.value);
          return value instanceof Promise
            ? value.then((mapped) => ({ done: false, value: mapped }))
            : { done: false, value };
        },
        (error) => Promise.reject(mapError(error)),
      ),
    // What a stopped source answers is "done", whatever its type says.
    return: (value?: unknown) =>
      (inner.return?.(value) ?? Promise.resolve({ done: true, value: undefined })) as Promise<IteratorResult<U>>,
    throw: (error?: unknown) => (inner.throw?.(error) ?? Promise.reject(error)) as Promise<IteratorResult<U>>,
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
