// How the store sends SQL: straight to the driver (src/db), never through Prisma's query engine,
// whose own cost per statement is larger than PostgreSQL's work for a write or a page.
import { database } from "../db/prisma.js";
import type { Prisma } from "../generated/prisma/client.js";

/** A connection, a transaction's session, or the pool: anything that runs one parameterised statement. */
export interface SqlRunner {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export const run = <T>(statement: Prisma.Sql, on: SqlRunner = database) =>
  on.query<T>(statement.text, statement.values);

/** Runs `work` in one transaction on one connection; committed when it returns, rolled back when it throws. */
export const inTransaction = <T>(work: (session: SqlRunner) => Promise<T>) => database.transaction(work);
