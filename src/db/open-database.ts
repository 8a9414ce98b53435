// Opens the configured database: PostgreSQL with DATABASE_URL, embedded PGlite under DATA_DIR
// otherwise. Only the chosen driver is loaded. Returns the raw driver (`database`) and the adapter
// Prisma's client is made with (src/store/store.ts).
import type { Config } from "../config.js";
import type { Database } from "./database.js";

export type DatabaseConfig = Pick<
  Config,
  | "DATABASE_URL"
  | "DATA_DIR"
  | "PGLITE_TEMPLATE_DIR"
  | "DATABASE_POOL_SIZE"
  | "DATABASE_POOLER"
  | "DATABASE_DIRECT_URL"
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
          transactionPooler: config.DATABASE_POOLER === "transaction",
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

/**
 * Runs `work` (migrations) on a direct connection to PostgreSQL when DATABASE_DIRECT_URL is set —
 * DDL and its locks do not belong in a transaction pooler's shared connections — and on `database`
 * otherwise.
 */
export async function onMigrationDatabase<T>(
  config: DatabaseConfig,
  database: Database,
  work: (database: Database) => Promise<T>,
): Promise<T> {
  if (!config.DATABASE_DIRECT_URL || !config.DATABASE_URL) return work(database);
  const { openPostgres } = await import("./postgres-database.js");
  const direct = openPostgres(config.DATABASE_DIRECT_URL, {
    poolSize: 1,
    transactionPooler: false,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
    // Migrations lift these per transaction anyway (src/db/migrate.ts).
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  });
  try {
    return await work(direct.database);
  } finally {
    await direct.database.close();
  }
}
