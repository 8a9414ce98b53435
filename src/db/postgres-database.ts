// A PostgreSQL server through node-postgres: the pool Prisma's adapter uses, and the Database
// the migrator and maintenance use. Imported only when DATABASE_URL is set.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { logger } from "../logger.js";
import type { Database } from "./database.js";
import { timed } from "./statement-log.js";
import { parseUtcTimestamp, TIMESTAMP_OID } from "./utc-timestamps.js";

const utcTimestamps = {
  getTypeParser: (oid: number, format?: string) =>
    oid === TIMESTAMP_OID ? parseUtcTimestamp : pg.types.getTypeParser(oid, format as "text"),
};

export interface PostgresOptions {
  poolSize: number;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}

export function openPostgres(url: string, options: PostgresOptions) {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    // While PostgreSQL is unreachable a call fails after this instead of waiting on the network
    // (src/db/unavailable.ts turns that into UNAVAILABLE); the pool reconnects by itself later.
    connectionTimeoutMillis: options.connectTimeoutMs,
    // A server that stops answering on an open connection (a partition) fails a query after this,
    // as UNAVAILABLE, instead of holding the request; the pool discards that connection.
    query_timeout: options.queryTimeoutMs,
  });
  // An idle client losing its server (restart, pg_terminate_backend) must not crash the process;
  // the pool drops it and opens a new connection when one is needed.
  pool.on("error", (error) => logger.warn(`[db] idle PostgreSQL connection lost: ${error.message}`));
  const host = new URL(url);
  const database: Database = {
    kind: "postgres",
    description: `PostgreSQL ${host.hostname}:${host.port || 5432}${host.pathname}`,
    async withSession(work) {
      const client = await pool.connect();
      try {
        return await work({
          runScript: async (sql) => void (await client.query(sql)),
          query: <T>(sql: string, params?: unknown[]) =>
            timed(
              sql,
              async () => (await client.query({ text: sql, values: params, types: utcTimestamps })).rows as T[],
            ),
        });
      } finally {
        client.release();
      }
    },
    transaction: (work) =>
      database.withSession(async (session) => {
        await session.runScript("BEGIN");
        try {
          const result = await work(session);
          await session.runScript("COMMIT");
          return result;
        } catch (error) {
          await session.runScript("ROLLBACK");
          throw error;
        }
      }),
    async query<T>(sql: string, params?: unknown[]) {
      return timed(
        sql,
        async () => (await pool.query({ text: sql, values: params, types: utcTimestamps })).rows as T[],
      );
    },
    close: () => pool.end(),
  };
  return { database, adapter: new PrismaPg(pool) };
}
