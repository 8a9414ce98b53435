// Applies pending migrations from prisma/migrations at start-up and from `npm run migrate`.
// Bookkeeping uses Prisma's own `_prisma_migrations` table and checksums, so `prisma migrate
// status` agrees with it; the SQL runs through our connection because Prisma 6's CLI cannot
// apply migrations to every database we support from this process (PGlite is in-process).
import { randomUUID } from "node:crypto";
import type { Database, Session } from "./database.js";
import { listMigrations, type MigrationFile } from "./migration-files.js";

// Any constant works; it only has to be the same for every instance of dialogql.
const MIGRATION_LOCK_KEY = 72_541_001;

const bookkeeping = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
);`;

export interface MigrationResult {
  applied: string[];
}

/** `migrations`: all of prisma/migrations unless given (an older template is made with fewer). */
export async function applyMigrations(database: Database, migrations?: MigrationFile[]): Promise<MigrationResult> {
  const applied: string[] = [];
  for (const migration of migrations ?? (await listMigrations())) {
    if (await database.transaction((session) => applyOne(session, migration))) applied.push(migration.name);
  }
  return { applied };
}

/**
 * One migration, in one transaction: a failing one leaves the database as it was. Several
 * instances may start together against one PostgreSQL: the transaction-scoped advisory lock
 * serialises them (a session lock would outlive the transaction on a pooled connection, behind
 * PgBouncer in transaction mode), and whether it is applied is read under that lock.
 */
async function applyOne(session: Session, { name, sql, checksum }: MigrationFile): Promise<boolean> {
  // The connection's time limits (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_LOCK_TIMEOUT_MS) are for
  // requests: a migration may rewrite a large table, and waits for another instance's migrations.
  // SET LOCAL: they come back with the transaction's end, on whichever connection a pooler gave.
  await session.runScript(
    `SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0;\nSELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY});\n${bookkeeping}`,
  );
  const [done] = await session.query<{ checksum: string }>(
    `SELECT checksum FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    [name],
  );
  if (done) {
    if (done.checksum !== checksum) console.warn(`[migrate] ${name} was edited after it was applied`);
    return false;
  }
  await session.runScript(sql).catch((error: Error) => {
    throw new Error(`Migration ${name} failed: ${error.message}`);
  });
  await session.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
    [randomUUID(), checksum, name],
  );
  return true;
}
