// Counts the SQL statements sent while `work` runs, through Prisma or outside it.
import { onStatement } from "../../src/db/statement-log.js";

let active: string[] | null = null;
onStatement((sql) => active?.push(sql));

export async function countStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  active = [];
  try {
    const result = await work();
    return { result, statements: active };
  } finally {
    active = null;
  }
}
