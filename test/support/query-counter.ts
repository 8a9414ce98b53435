// Counts the SQL statements Prisma sends while `work` runs (Prisma's query events).
import { prisma } from "../../src/db/prisma.js";

let active: string[] | null = null;
prisma.$on("query", (event) => active?.push(event.query));

export async function countStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  active = [];
  try {
    const result = await work();
    return { result, statements: active };
  } finally {
    active = null;
  }
}
