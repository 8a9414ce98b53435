// A PostgreSQL server through node-postgres: the pool Prisma's adapter uses, and the Database
// the migrator and maintenance use. Imported only when DATABASE_URL is set.
import { createHash } from "node:crypto";
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

// Statements outside Prisma are sent as named (prepared) statements: PostgreSQL parses and
// analyses one once per connection, and every later use only binds and executes it. A page of
// history, a root lookup and a turn's write are the same few texts over and over. The name is a
// hash of the text, so one name never stands for two texts; texts beyond the first
// MAX_NAMED_TEXTS (statements built with a varying shape) go unnamed, so no connection keeps an
// unbounded number of them.
const MAX_NAMED_TEXTS = 1_000;
const statementNames = new Map<string, string>();

function statementName(sql: string) {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED_TEXTS) {
    name = `dq_${createHash("sha1").update(sql).digest("base64url")}`;
    statementNames.set(sql, name);
  }
  return name;
}

const statement = (sql: string, params: unknown[] | undefined) => ({
  name: statementName(sql),
  text: sql,
  values: params,
  types: utcTimestamps,
});

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
            timed(sql, async () => (await client.query(statement(sql, params))).rows as T[]),
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
      return timed(sql, async () => (await pool.query(statement(sql, params))).rows as T[]);
    },
    close: () => pool.end(),
  };
  return { database, adapter: new PrismaPg(pool) };
}
