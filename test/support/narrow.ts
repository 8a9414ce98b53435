// Narrowing a typed union result in a test: the member a test expects, or a failure that shows
// what came back. No imports with side effects, so any test file can use it.

/**
 * Narrows a union result to the member named `typename`, failing the test (with what came back)
 * otherwise: the typed way to say "this write must have been stored".
 */
export function member<T extends { __typename?: string }, N extends NonNullable<T["__typename"]>>(
  result: T,
  typename: N,
): Extract<T, { __typename?: N }> {
  if (result.__typename !== typename) throw new Error(`expected a ${typename}, got ${JSON.stringify(result)}`);
  return result as Extract<T, { __typename?: N }>;
}

/**
 * Narrows a union selected without `__typename` (`... on Dialog { id }`) to the members that carry
 * `key`, failing the test (with what came back) otherwise.
 */
export function withField<T extends object, K extends string>(result: T, key: K): Extract<T, Record<K, unknown>> {
  if (!(key in result)) throw new Error(`expected a result with ${key}, got ${JSON.stringify(result)}`);
  return result as Extract<T, Record<K, unknown>>;
}
