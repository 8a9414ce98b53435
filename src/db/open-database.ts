// Opens the configured database: PostgreSQL with DATABASE_URL, embedded PGlite under DATA_DIR
// otherwise. Only the chosen driver is loaded. Returns the raw driver (`database`) and the adapter
// Prisma's client is made with (src/store/store.ts).
import type { Config } from "../config.js";

export type DatabaseConfig = Pick<
  Config,
  | "DATABASE_URL"
  | "DATA_DIR"
  | "PGLITE_TEMPLATE_DIR"
  | "DATABASE_POOL_SIZE"
  | "DATABASE_CONNECT_TIMEOUT_MS"
  | "DATABASE_QUERY_TIMEOUT_MS"
  | "DATABASE_STATEMENT_TIMEOUT_MS"
  | "DATABASE_LOCK_TIMEOUT_MS"
  | "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS"
>;

export function openDatabase(config: DatabaseConfig) {
  return config.DATABASE_URL
    ? import("./postgres-database.js").then(({ openPostgres }) =>
        openPostgres(config.DATABASE_URL!, {
          poolSize: config.DATABASE_POOL_SIZE,
          connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
          queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
          statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
          lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
          idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        }),
      )
    : import("./embedded-database.js").then(({ openEmbedded }) =>
        openEmbedded(config.DATA_DIR, config.PGLITE_TEMPLATE_DIR),
      );
}
