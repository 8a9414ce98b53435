// Process configuration, read once from the environment and validated, so a typo in a
// variable fails at start-up with a clear message instead of at the first request.
import { z } from "zod";

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default("0.0.0.0"),
  /** postgresql://… for a real server; unset means embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /** Where the embedded database lives; "memory://" keeps it in memory (tests). */
  DATA_DIR: z.string().default("./data"),
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
  /** redis://… to fan live history out through Redis, so several instances serve one dialog's
   * subscribers; unset keeps it in this process. */
  REDIS_URL: z.string().url().optional(),
  MAX_EVENTS_PER_WRITE: z.coerce.number().int().positive().default(1000),
  /** Largest serialized event (content, parts, args, metadata) accepted, in bytes. */
  MAX_EVENT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Config = z.infer<typeof schema>;

function loadConfig(env: NodeJS.ProcessEnv): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  return parsed.data;
}

export const config = loadConfig(process.env);
