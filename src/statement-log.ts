// Prisma's query events, and the statements sent outside Prisma, as one stream of SQL texts with
// how long each took and, outside Prisma, their parameters (tests and benchmarks count the
// statements and bytes a request costs; /metrics times them).
type StatementListener = (sql: string, durationMs: number, params?: readonly unknown[]) => void;
const statementListeners = new Set<StatementListener>();

export function onStatement(listener: StatementListener) {
  statementListeners.add(listener);
  return () => void statementListeners.delete(listener);
}

export function observed(sql: string, durationMs: number, params?: readonly unknown[]) {
  for (const listener of statementListeners) listener(sql, durationMs, params);
}

/** Runs one statement outside Prisma and reports it, failed or not, with its duration and parameters. */
export async function timed<T>(sql: string, run: () => Promise<T>, params?: readonly unknown[]): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    observed(sql, performance.now() - started, params);
  }
}

/**
 * About how many bytes a statement sends to the database: its text and its parameters as text
 * (what the driver puts on the wire, give or take the protocol's framing).
 */
export function statementBytes(sql: string, params: readonly unknown[] = []): number {
  let bytes = Buffer.byteLength(sql);
  for (const param of params) {
    if (param == null) continue;
    if (typeof param === "string") bytes += Buffer.byteLength(param);
    else if (param instanceof Uint8Array) bytes += param.byteLength;
    else if (param instanceof Date) bytes += param.toISOString().length;
    else if (typeof param === "object") bytes += Buffer.byteLength(JSON.stringify(param));
    else bytes += String(param).length;
  }
  return bytes;
}
