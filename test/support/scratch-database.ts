// A database of a test's own, for applying migrations by hand: on PostgreSQL when the suite runs
// there (a new database, dropped on close), else a new in-memory PGlite.
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export interface Scratch {
  run(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function scratchDatabase(): Promise<Scratch> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await PGlite.create();
    return {
      run: async (sql) => void (await db.exec(sql)),
      query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
      close: () => db.close(),
    };
  }
  const name = `dialogql_test_backfill_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    run: async (sql) => void (await client.query(sql)),
    query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
    close: async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
