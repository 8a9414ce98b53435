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
  const toApply = migrations ?? (await listMigrations());
  return database.withSession((session) => applyPending(session, toApply));
}

async function applyPending(session: Session, migrations: MigrationFile[]): Promise<MigrationResult> {
  const applied: string[] = [];
  // The connection's time limits (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_LOCK_TIMEOUT_MS) are for
  // requests: a migration may rewrite a large table, and waits for another instance's migrations.
  await session.runScript("SET statement_timeout = 0; SET lock_timeout = 0;");
  // Several instances may start together against one PostgreSQL: serialise them.
  await session.runScript(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY});`);
  try {
    await session.runScript(bookkeeping);
    const done = await session.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const doneByName = new Map(done.map((row) => [row.migration_name, row.checksum]));
    for (const { name, sql, checksum } of migrations) {
      const previous = doneByName.get(name);
      if (previous !== undefined) {
        if (previous !== checksum) console.warn(`[migrate] ${name} was edited after it was applied`);
        continue;
      }
      // One transaction per migration: a failing one leaves the database as it was.
      await session.runScript(`BEGIN;\n${sql}\n;COMMIT;`).catch(async (error) => {
        await session.runScript("ROLLBACK;").catch(() => undefined);
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`);
      });
      await session.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), checksum, name],
      );
      applied.push(name);
    }
  } finally {
    await session.runScript(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY});`);
    await session.runScript("RESET statement_timeout; RESET lock_timeout;");
  }
  return { applied };
}
