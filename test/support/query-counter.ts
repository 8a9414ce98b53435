// Counts the SQL statements sent while `work` runs, through Prisma or outside it, and the bytes
// sent outside Prisma (statement text and parameters; Prisma's statements count their text only).
//
// By default only the statements `work` itself causes count: the counter follows its async
// context, so a timer of the app that fires meanwhile (the revocation poll, the in-flight sweep)
// is not counted with it. A request sent over the network is served in the server's own async
// context, not the caller's; `wholeProcess` counts every statement the process sends instead.
import { AsyncLocalStorage } from "node:async_hooks";
import { onStatement, statementBytes } from "../../src/statement-log.js";

interface Tally {
  statements: string[];
  /** Bytes of each statement, in the same order. */
  bytes: number[];
}

const counting = new AsyncLocalStorage<Tally>();
let everywhere: Tally | null = null;
onStatement((sql, _durationMs, params) => {
  const tally = everywhere ?? counting.getStore();
  tally?.statements.push(sql);
  tally?.bytes.push(statementBytes(sql, params));
});

export async function countStatements<T>(
  work: () => Promise<T>,
  { wholeProcess = false } = {},
): Promise<{ result: T; statements: string[]; bytes: number[] }> {
  const tally: Tally = { statements: [], bytes: [] };
  if (!wholeProcess) return { result: await counting.run(tally, work), ...tally };
  everywhere = tally;
  try {
    return { result: await work(), ...tally };
  } finally {
    everywhere = null;
  }
}

/**
 * The statements without the authenticator's "does any API key exist?" check: it is refreshed
 * every few seconds by whichever request comes after that, so a test counting a read's own
 * statements leaves it out.
 */
export const withoutKeyChecks = (statements: string[]) => statements.filter((sql) => !sql.includes('"ApiKey"'));
