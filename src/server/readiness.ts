// What /ready checks: the database answers, every migration in prisma/migrations is applied, and
// Redis (when REDIS_URL is set) is connected. A load balancer sends traffic only to an instance
// whose answer is 200; each check says what is wrong when it is not.
import type { Database } from "../db/database.js";
import { listMigrations } from "../db/migration-files.js";
import type { LiveBus } from "../live/live-bus.js";

export interface Readiness {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

const CHECK_TIMEOUT_MS = 2_000;

export async function checkReadiness(database: Database, live: LiveBus): Promise<Readiness> {
  const checks: Readiness["checks"] = {};
  await withTimeout(pendingMigrations(database)).then(
    (names) => {
      checks.database = { ok: true };
      checks.migrations = names.length ? { ok: false, detail: `pending: ${names.join(", ")}` } : { ok: true };
    },
    (error: Error) => {
      checks.database = { ok: false, detail: error.message.split("\n").filter(Boolean).at(-1) ?? "unreachable" };
      checks.migrations = { ok: false, detail: "unknown while the database cannot be reached" };
    },
  );
  if (live.redis) {
    const status = live.redis.status;
    checks.redis = status === "ready" ? { ok: true } : { ok: false, detail: `connection is ${status}` };
  }
  return { ready: Object.values(checks).every((check) => check.ok), checks };
}

async function pendingMigrations(database: Database): Promise<string[]> {
  const rows = await database
    .query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    )
    .catch((error: Error & { code?: string }) => {
      // No bookkeeping table yet: the database answers, and nothing is applied.
      if (error.code === "42P01" || /_prisma_migrations.*does not exist/.test(error.message)) return [];
      throw error;
    });
  const applied = new Set(rows.map((row) => row.migration_name));
  return (await listMigrations()).map((m) => m.name).filter((name) => !applied.has(name));
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
