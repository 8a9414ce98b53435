// How the store sends SQL: straight to the driver (src/db), never through Prisma's query engine,
// whose own cost per statement is larger than PostgreSQL's work for a write or a page.
import type { Prisma } from "../generated/prisma/client.js";

/** A connection, a transaction's session, or the pool: anything that runs one parameterised statement. */
export interface SqlRunner {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Runs `statement` on `on`: the store's database (`store.database`) or a write's session. */
export const run = <T>(statement: Prisma.Sql, on: SqlRunner) => on.query<T>(statement.text, statement.values);
