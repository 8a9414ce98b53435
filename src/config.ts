// Configuration: the environment, validated, so a typo in a variable fails at start-up with a
// clear message instead of at the first request. `loadConfig(env)` is pure: main.ts and the CLIs
// call it with process.env and hand the result on (to openStore and buildApp); tests call it with
// the settings they want. Nothing reads a configuration at import time.
import path from "node:path";
import { z } from "zod";
import { parseDuration } from "./duration.js";

/** A duration such as "24h" or "7d", in milliseconds; with `forever`, that word means undefined. */
const duration = ({ forever = false } = {}) =>
  z.string().transform((text, ctx) => {
    if (forever && text.trim() === "forever") return undefined;
    const ms = parseDuration(text);
    if (ms === null) {
      const hint = forever ? "90s, 30m, 24h, 7d or forever" : "90s, 30m, 24h or 7d";
      ctx.addIssue({ code: "custom", message: `"${text}" is not a duration such as ${hint}` });
      return z.NEVER;
    }
    return ms;
  });

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** A count where 0 switches the limit off. */
const countOrOff = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
/** "true"/"false" (also 1/0, yes/no); z.coerce.boolean would read "false" as true. */
const flag = () =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .transform((value) => ["true", "1", "yes"].includes(value))
    .optional();

const schema = z.object({
  NODE_ENV: z.string().default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  /**
   * A port of its own for GET /health and /ready (the load balancer's checks), so a check's new
   * connection does not wait behind a connect storm's on PORT (src/server/health-listener.ts).
   * Unset: they are served on PORT only (they always are there too).
   */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * On HEALTH_PORT, /health and /ready answer 503 "stalled" once the event loop has not run for
   * this long (they are answered by a thread of their own, src/server/health-listener.ts).
   */
  HEALTH_STALL_MS: z.coerce.number().int().min(200).default(10_000),
  /** Loopback unless told otherwise: a development server (open, without keys) is not for the network. */
  HOST: z.string().default("127.0.0.1"),
  /** postgresql://… for a real server; unset means embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /** Where the embedded database lives; "memory://" keeps it in memory (tests). */
  DATA_DIR: z.string().default("./data"),
  /** Where the templates a new embedded database starts from are kept (src/db/pglite-template.ts);
   * `npm install` makes them. */
  PGLITE_TEMPLATE_DIR: z
    .string()
    .default(path.resolve(import.meta.dirname, "../node_modules/.cache/dialogql/pglite-template")),
  DATABASE_POOL_SIZE: count(10),
  /** What sits between this process and PostgreSQL: `none` (a direct connection, or a pooler in
   * session mode) or `transaction` (PgBouncer in transaction mode, which keeps no prepared
   * statement or session state from one transaction to the next): statements then go unnamed. */
  DATABASE_POOLER: z.enum(["none", "transaction"]).default("none"),
  /** postgresql://… straight to PostgreSQL (not through the pooler), for migrations; DATABASE_URL
   * when unset. */
  DATABASE_DIRECT_URL: z.string().url().optional(),
  /** How long a new PostgreSQL connection may take before the call fails as UNAVAILABLE. */
  DATABASE_CONNECT_TIMEOUT_MS: count(5_000),
  /** redis://… to fan live history out through Redis, so several instances serve one dialog's
   * subscribers; unset keeps it in this process. */
  REDIS_URL: z.string().url().optional(),
  /** host:port,… of a Redis Cluster's nodes (a few are enough; the rest are discovered), instead of
   * REDIS_URL: channels go through sharded pub/sub (docs/scaling.md). */
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^\s*[^\s,:]+:\d+\s*(,\s*[^\s,:]+:\d+\s*)*$/, "is not a list such as 10.0.0.1:6379,10.0.0.2:6379")
    .optional(),
  /** How long any Redis command may take; beyond it the call falls back (in-process rate counting,
   * local delivery) and the connection is treated as lost. */
  REDIS_COMMAND_TIMEOUT_MS: count(1_000),
  /** How long any PostgreSQL query may wait for its answer before it fails as UNAVAILABLE. */
  DATABASE_QUERY_TIMEOUT_MS: count(30_000),
  /** PostgreSQL's own limits, set on every connection (0: off): how long a statement may run
   * (`statement_timeout`), wait for a lock (`lock_timeout`; a locked dialog's writers fail with
   * UNAVAILABLE), and how long a transaction may sit idle before the server ends it and releases
   * its locks (`idle_in_transaction_session_timeout`). */
  DATABASE_STATEMENT_TIMEOUT_MS: countOrOff(30_000),
  DATABASE_LOCK_TIMEOUT_MS: countOrOff(5_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: countOrOff(10_000),
  /** Writes to one dialog that may hold a database connection at once; the rest wait in the
   * instance's memory (at most DATABASE_LOCK_TIMEOUT_MS), so one hot or locked dialog cannot take
   * the pool. */
  DIALOG_WRITERS_AT_ONCE: count(2),
  MAX_EVENTS_PER_WRITE: count(1000),
  /** Largest serialized event (content, parts, args, metadata) accepted, in bytes. */
  MAX_EVENT_BYTES: count(1024 * 1024),
  /** Largest HTTP request body or WebSocket message, in bytes (413 beyond). */
  MAX_BODY_BYTES: count(8 * 1024 * 1024),
  MAX_QUERY_DEPTH: count(12),
  MAX_QUERY_ALIASES: count(15),
  MAX_QUERY_TOKENS: count(5_000),
  MAX_QUERY_COST: count(5_000_000),
  MAX_SUBSCRIPTIONS_PER_CONNECTION: count(100),
  /** Open long-lived connections (graphql-ws, SSE subscriptions, Responses WebSocket mode) one API
   * key, and one tenant, may hold (close code 4429, HTTP 429 beyond). */
  MAX_CONNECTIONS_PER_KEY: count(100),
  MAX_CONNECTIONS_PER_TENANT: count(500),
  /** Long-lived connections one instance holds at most; default half its file-descriptor limit, at most 10,000. */
  MAX_CONNECTIONS_PER_INSTANCE: z.coerce.number().int().positive().optional(),
  /** Subscription starts are paced (src/connections/subscription-pacing.ts): how many start per
   * turn of the event loop, how many may be starting at once, how many may wait (SUBSCRIPTIONS_BUSY beyond). */
  SUBSCRIPTION_STARTS_PER_TICK: count(8),
  MAX_SUBSCRIPTIONS_STARTING: count(200),
  MAX_SUBSCRIPTIONS_WAITING: count(5_000),
  /** Subscriptions of one tenant starting at once (the rest wait their turn); default half of MAX_SUBSCRIPTIONS_STARTING. */
  MAX_SUBSCRIPTIONS_STARTING_PER_TENANT: z.coerce.number().int().positive().optional(),
  /** WebSocket upgrades completed per turn of the event loop (src/connections/upgrade-pacing.ts). */
  WEBSOCKET_UPGRADES_PER_TICK: count(16),
  /** Unsent bytes one subscription connection (WebSocket or SSE) may hold before it is dropped. */
  MAX_QUEUED_BYTES_PER_CONNECTION: count(16 * 1024 * 1024),
  /** Event rows one request may read while executing (reserved before each read). */
  MAX_REQUEST_ROWS: count(100_000),
  /** Bytes of events one request may read while executing (its answer's memory). */
  MAX_REQUEST_BYTES: count(64 * 1024 * 1024),
  /** A request's reads may start only within this time of its start. */
  MAX_REQUEST_MS: count(30_000),
  /** Reads one tenant may run at once (event reads, subscription start-ups), across its requests
   * (the rest queue); default half the pool. */
  TENANT_DB_CONCURRENCY: z.coerce.number().int().positive().optional(),
  /** Reads one tenant may have waiting for its share; more are refused with TENANT_BUSY. */
  TENANT_DB_QUEUE: count(1_000),
  /** Requests (HTTP requests, WebSocket operations) one API key may make per window; 0: no limit. */
  RATE_LIMIT_REQUESTS: countOrOff(6_000),
  RATE_LIMIT_WINDOW_SECONDS: count(60),
  /** A key may spend at most its share of the window in any span of this many seconds (6,000 per
   * 60 s: 100 per second), so it cannot spend the window in a burst; 0: the window alone. */
  RATE_LIMIT_BURST_SECONDS: countOrOff(1),
  /** A graphql-ws connection that sends no connection_init within this time is closed. */
  WS_CONNECTION_INIT_TIMEOUT_MS: count(3_000),
  /** A subscriber whose unsent data does not drain within this time is disconnected (it resumes
   * with afterSeq). */
  SLOW_SUBSCRIBER_TIMEOUT_MS: count(30_000),
  /** `required`: every call needs an API key. `auto`: so do they once any key exists; before that
   * the server runs in single-tenant development mode. */
  AUTH: z.enum(["auto", "required"]).default("auto"),
  /** How often each instance reads API key revocations from the database (with Redis they also
   * arrive at once; this catches those made while an instance was cut off). */
  REVOCATION_POLL_MS: count(1_000),
  /** Origins (comma-separated, or *) whose browser pages may call the API; same-origin always can. */
  CORS_ORIGINS: z.string().default(""),
  /** GraphiQL and introspection; both default to off when NODE_ENV=production. */
  GRAPHIQL: flag(),
  INTROSPECTION: flag(),
  /**
   * How long a dialog is kept after its last write, in milliseconds ("24h", "7d"). Unset or
   * "forever": dialogs are kept until deleted.
   */
  RETENTION: duration({ forever: true }).optional(),
  /** OpenTelemetry traces (docs/operations.md, "Traces"): an OTLP/HTTP receiver's base URL; unset, no traces. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default("dialogql"),
  /** Milliseconds spans wait to be sent in a batch. */
  OTEL_BSP_SCHEDULE_DELAY: count(5_000),
  /** Put prompts and answers in model-call spans (gen_ai.input.messages, gen_ai.output.messages); off by default. */
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: flag(),
  /** The price book (docs/usage.md): a JSON file of prices per million tokens per model; the
   * shipped config/model-prices.json when unset. */
  MODEL_PRICES: z.string().min(1).optional(),
  /** How often the retention sweeper looks for expired dialogs, in milliseconds. */
  RETENTION_SWEEP_INTERVAL: duration().default(60_000),
  /** In-flight text (src/history-writes/) is checkpointed to the database at least this
   * often while it grows, and after this many characters: a restart loses at most that much. */
  IN_FLIGHT_CHECKPOINT_MS: count(500),
  IN_FLIGHT_CHECKPOINT_CHARS: count(2_000),
  /** Largest text delta one streamText call may carry, in characters. */
  MAX_TEXT_DELTA_CHARS: count(64 * 1024),
  /** An IN_PROGRESS response nobody was heard from for this long (no text delta, event or
   * checkpoint; a generated turn whose instance died or whose end could not be stored) is ended
   * INCOMPLETE with its text so far, by the sweep of any instance. */
  IN_FLIGHT_IDLE_TIMEOUT: duration().default(5 * 60_000),
  /** How often idle streaming responses are looked for. */
  IN_FLIGHT_SWEEP_INTERVAL: duration().default(15_000),
  /** On SIGTERM/SIGINT, how long requests in flight (writes among them) may take to finish. */
  SHUTDOWN_DRAIN_MS: count(10_000),
  /**
   * Within the drain, how long turns this instance generates may run on before they are stopped,
   * each ending INCOMPLETE with its output so far (the rest of the drain lets those be stored and answered).
   */
  SHUTDOWN_TURNS_MS: count(7_000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Model providers for /v1/responses and generateResponse (docs/responses-api.md), named as the
  // providers' own SDKs name them.
  /** Key of an OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp, OpenRouter…). */
  OPENAI_API_KEY: z.string().optional(),
  /** Its base URL, e.g. http://localhost:11434/v1; OpenAI's own when unset. */
  OPENAI_BASE_URL: z.string().url().optional(),
  /** Which API of that server to call: `chat` (Chat Completions, which every compatible server has) or `responses`. */
  UPSTREAM_API: z.enum(["chat", "responses"]).default("chat"),
  /** Anthropic's key; models named claude-* go to Anthropic when it is set. */
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  /** Which provider serves which model names: `glob=provider` pairs, first match wins, e.g. "claude-*=anthropic,*=openai". */
  MODEL_PROVIDERS: z.string().optional(),
  /** The model the web viewer's composer uses unless the user picks another. */
  DEFAULT_MODEL: z.string().optional(),
  /** MCP servers /v1/responses and generateResponse may call (docs/mcp.md): comma-separated URL
   * prefixes. Unset: none in production, loopback (http://localhost, http://127.0.0.1,
   * http://[::1]) in development. */
  MCP_ALLOWED_SERVERS: z.string().optional(),
  /** How long one request to an MCP server (connecting, listing tools, one tool call) may take
   * before it ends with an error the model is given. */
  MCP_TOOL_TIMEOUT_MS: count(60_000),
  /** The models GET /v1/models lists, comma-separated (default: DEFAULT_MODEL and the names MODEL_PROVIDERS spells out). */
  MODELS: z.string().optional(),
  /** How often a failed upstream call is retried (by the AI SDK, with backoff) before the turn fails. */
  UPSTREAM_MAX_RETRIES: z.coerce.number().int().min(0).default(2),
  /** The models' context window in tokens: `truncation: "auto"` drops the oldest turns to fit it. */
  MODEL_CONTEXT_TOKENS: count(128_000),
});

export type Config = z.infer<typeof schema> & { GRAPHIQL: boolean; INTROSPECTION: boolean };

/** Unset and empty variables alike take their defaults. */
const withoutEmpty = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = schema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  if (parsed.data.REDIS_URL && parsed.data.REDIS_CLUSTER_NODES) {
    throw new Error(
      "Invalid configuration:\n  REDIS_CLUSTER_NODES: set either REDIS_URL or REDIS_CLUSTER_NODES, not both",
    );
  }
  const production = parsed.data.NODE_ENV === "production";
  return {
    ...parsed.data,
    GRAPHIQL: parsed.data.GRAPHIQL ?? !production,
    INTROSPECTION: parsed.data.INTROSPECTION ?? !production,
  };
}

/**
 * The logger's two settings, for src/logger.ts, which is one per process and made on import; an
 * invalid value falls back to the default here and is reported by loadConfig at start-up.
 */
export function loggingConfig(env: NodeJS.ProcessEnv): Pick<Config, "NODE_ENV" | "LOG_LEVEL"> {
  const parsed = schema.pick({ NODE_ENV: true, LOG_LEVEL: true }).safeParse(withoutEmpty(env));
  return parsed.success ? parsed.data : { NODE_ENV: "development", LOG_LEVEL: "info" };
}
