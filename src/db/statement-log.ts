// Prisma's query events, and the statements sent outside Prisma, as one stream of SQL texts
// (tests and benchmarks count the statements a request costs).
const statementListeners = new Set<(sql: string) => void>();

export function onStatement(listener: (sql: string) => void) {
  statementListeners.add(listener);
  return () => void statementListeners.delete(listener);
}

export function observed(sql: string) {
  for (const listener of statementListeners) listener(sql);
}
