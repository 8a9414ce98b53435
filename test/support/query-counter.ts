// Counts the SQL statements sent while `work` runs, through Prisma or outside it.
//
// By default only the statements `work` itself causes count: the counter follows its async
// context, so a timer of the app that fires meanwhile (the revocation poll, the in-flight sweep)
// is not counted with it. A request sent over the network is served in the server's own async
// context, not the caller's; `wholeProcess` counts every statement the process sends instead.
import { AsyncLocalStorage } from "node:async_hooks";
import { onStatement } from "../../src/statement-log.js";

const counting = new AsyncLocalStorage<string[]>();
let everywhere: string[] | null = null;
onStatement((sql) => (everywhere ?? counting.getStore())?.push(sql));

export async function countStatements<T>(
  work: () => Promise<T>,
  { wholeProcess = false } = {},
): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  if (!wholeProcess) return { result: await counting.run(statements, work), statements };
  everywhere = statements;
  try {
    return { result: await work(), statements };
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
