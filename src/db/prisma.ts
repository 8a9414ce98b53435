// The one Prisma client of the process. With DATABASE_URL it talks to PostgreSQL through
// node-postgres; without it, to PGlite (PostgreSQL compiled to WASM) in this process, so a
// fresh clone runs with no database server at all. Both speak the same SQL dialect, so there
// is one schema and one migration history.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { config } from "../config.js";
import { logger } from "../server/logger.js";
import { PrismaClient } from "../generated/prisma/client.js";

/** One database connection used outside Prisma (migrations, maintenance). */
export interface Session {
  /** Runs a multi-statement SQL script. */
  runScript(sql: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  kind: "postgres" | "pglite";
  /** Human-readable location for logs (no credentials). */
  description: string;
  /** Runs `work` on one dedicated connection (session-level locks stay with it). */
  withSession<T>(work: (session: Session) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction on one connection, outside Prisma. */
  transaction<T>(work: (session: Session) => Promise<T>): Promise<T>;
  /**
   * Runs one parameterised statement on any free connection, outside Prisma: for the hot paths,
   * where Prisma's own cost per statement (about a millisecond of CPU, more than the SQL) would
   * dominate. Timestamps are read as UTC, as Prisma stores them.
   */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

// `timestamp` columns hold UTC wall-clock times (Prisma's convention); both drivers would read
// them as local time.
const TIMESTAMP_OID = 1114;
/** "2026-11-22 05:40:54.123" (PostgreSQL's text form) as UTC; field by field, a history of 10,000
 * events reads 10,000 of them and parsing the string as a whole cost ten times as much. */
export function parseUtcTimestamp(text: string) {
  const year = +text.slice(0, 4);
  // Date.UTC reads years below 100 as 19xx; those, and anything unusual (BC, infinity), take the slow path.
  if (text.length < 19 || text[4] !== "-" || text[10] !== " " || !(year >= 100)) {
    return new Date(`${text.replace(" ", "T")}Z`);
  }
  const fraction = text.length > 20 ? Number(text.slice(20, 23).padEnd(3, "0")) : 0;
  return new Date(
    Date.UTC(year, +text.slice(5, 7) - 1, +text.slice(8, 10), +text.slice(11, 13), +text.slice(14, 16), +text.slice(17, 19), fraction),
  );
}
const utcTimestamps = {
  getTypeParser: (oid: number, format?: string) =>
    oid === TIMESTAMP_OID ? parseUtcTimestamp : pg.types.getTypeParser(oid, format as "text"),
};

/** Prisma's query events, and the statements sent outside Prisma, as one stream of SQL texts. */
const statementListeners = new Set<(sql: string) => void>();
export function onStatement(listener: (sql: string) => void) {
  statementListeners.add(listener);
  return () => void statementListeners.delete(listener);
}
const observed = (sql: string) => {
  for (const listener of statementListeners) listener(sql);
};

function openPostgres(url: string) {
  const pool = new pg.Pool({
    connectionString: url,
    max: config.DATABASE_POOL_SIZE,
    // While PostgreSQL is unreachable a call fails after this instead of waiting on the network
    // (src/db/unavailable.ts turns that into UNAVAILABLE); the pool reconnects by itself later.
    connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT_MS,
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
          query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
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
      observed(sql);
      return (await pool.query({ text: sql, values: params, types: utcTimestamps })).rows as T[];
    },
    close: () => pool.end(),
  };
  return { database, adapter: new PrismaPg(pool) };
}

function openPGlite(dataDir: string) {
  const inMemory = dataDir.startsWith("memory://");
  const location = inMemory ? dataDir : path.resolve(dataDir, "pglite");
  if (!inMemory) mkdirSync(location, { recursive: true });
  const client = new PGlite(location);
  const database: Database = {
    kind: "pglite",
    description: inMemory ? "embedded PGlite (in memory)" : `embedded PGlite at ${location}`,
    withSession: (work) =>
      work({
        runScript: async (sql) => void (await client.exec(sql)),
        query: async <T>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
      }),
    transaction: (work) =>
      client.transaction((tx) =>
        work({
          runScript: async (sql) => void (await tx.exec(sql)),
          query: async <T>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params)).rows,
        }),
      ),
    async query<T>(sql: string, params?: unknown[]) {
      observed(sql);
      return (await client.query<T>(sql, params, { parsers: { [TIMESTAMP_OID]: parseUtcTimestamp } })).rows;
    },
    close: () => client.close(),
  };
  // pglite-prisma-adapter 0.6 (the last line for Prisma 6) is typed against an older
  // driver-adapter-utils; the runtime protocol is the one Prisma 6.19 speaks.
  return { database, adapter: new PrismaPGlite(client) as unknown as PrismaPg };
}

const opened = config.DATABASE_URL ? openPostgres(config.DATABASE_URL) : openPGlite(config.DATA_DIR);

export const database: Database = opened.database;

export const prisma = new PrismaClient({
  adapter: opened.adapter,
  // Query events are cheap and let tests and benchmarks count the statements a request costs.
  log: [{ emit: "event", level: "query" }],
});
prisma.$on("query", (event) => observed(event.query));

export async function closeDatabase() {
  await prisma.$disconnect();
  await database.close();
}
