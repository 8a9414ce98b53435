// Prisma's query events, and the statements sent outside Prisma, as one stream of SQL texts with
// how long each took (tests and benchmarks count the statements a request costs; /metrics times
// them).
type StatementListener = (sql: string, durationMs: number) => void;
const statementListeners = new Set<StatementListener>();

export function onStatement(listener: StatementListener) {
  statementListeners.add(listener);
  return () => void statementListeners.delete(listener);
}

export function observed(sql: string, durationMs: number) {
  for (const listener of statementListeners) listener(sql, durationMs);
}

/** Runs one statement outside Prisma and reports it, failed or not, with its duration. */
export async function timed<T>(sql: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    observed(sql, performance.now() - started);
  }
}
