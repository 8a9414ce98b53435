// What /ready and /health say. An instance is ready (send it traffic) when the database answers
// and every migration in prisma/migrations is applied: without those it cannot serve a request.
// Redis is not needed to serve: while it is away, rate limits count in memory and live history is
// delivered to this instance's subscribers and resynced later (docs/production.md). So Redis down
// makes the instance degraded, not unready — taking every instance out of the load balancer on a
// Redis blip would turn a partial loss into a total one. Degraded is reported in both answers
// (`/ready`'s `degraded`, `/health`'s `status: "degraded"`) and by `dialogql_redis_connected` (0).
import type { Database } from "../db/database.js";
import { listMigrations } from "../db/migration-files.js";
import type { LiveBus } from "../live/live-bus.js";

export interface Check {
  ok: boolean;
  detail?: string;
  /** false: the instance serves without it (degraded). */
  required?: false;
}

export interface Readiness {
  ready: boolean;
  /** The optional checks that fail: the instance serves, with less. */
  degraded: string[];
  checks: Record<string, Check>;
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
  const redis = redisCheck(live);
  if (redis) checks.redis = redis;
  const entries = Object.entries(checks);
  return {
    ready: entries.every(([, check]) => check.ok || check.required === false),
    degraded: entries.filter(([, check]) => !check.ok && check.required === false).map(([name]) => name),
    checks,
  };
}

/** Liveness with what is missing: the process serves (200) whatever this says. */
export function checkHealth(live: LiveBus): { status: "ok" | "degraded"; degraded?: Record<string, string> } {
  const redis = redisCheck(live);
  if (redis && !redis.ok) return { status: "degraded", degraded: { redis: redis.detail! } };
  return { status: "ok" };
}

function redisCheck(live: LiveBus): Check | undefined {
  if (!live.redis) return undefined;
  const status = live.redis.status;
  return status === "ready"
    ? { ok: true }
    : {
        ok: false,
        required: false,
        detail: `connection is ${status}: live history is delivered on this instance only (resynced when Redis is back), rate limits count in memory`,
      };
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
