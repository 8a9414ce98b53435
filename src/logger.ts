// Structured logs: one JSON object a line (pino), with a time, a level and whatever fields the
// caller gives (requestId, tenant, operation, durationMs…), so a log pipeline can filter on them.
// In development, on a terminal, lines are pretty-printed when pino-pretty (a dev dependency) is
// installed; a production install (`npm ci --omit=dev`) has none and keeps JSON.
//
// Call sites write `logger.warn("what happened", error)` or `logger.info("what", { field })`:
// an Error becomes the `err` field (with its stack), a plain object's keys become fields.
import { createRequire } from "node:module";
import { pino, stdTimeFunctions, type Logger, type LevelWithSilent } from "pino";
import { loggingConfig } from "./config.js";

// Logging is the one setting read from the environment on import: every layer logs, and a
// logger handed down through every call would buy nothing a test needs.
const config = loggingConfig(process.env);

function prettyTransport() {
  if (config.NODE_ENV !== "development" || !process.stdout.isTTY) return undefined;
  try {
    createRequire(import.meta.url).resolve("pino-pretty");
    return { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" } };
  } catch {
    return undefined;
  }
}

const transport = prettyTransport();
export const log: Logger = pino({
  level: config.LOG_LEVEL satisfies LevelWithSilent,
  base: { service: "dialogql" },
  timestamp: stdTimeFunctions.isoTime,
  ...(transport ? { transport } : {}),
});

type Level = "debug" | "info" | "warn" | "error";

/** `message` first, then details: Errors go to `err`, objects are merged in, the rest appended. */
function at(level: Level, target: () => Logger) {
  return (message: unknown, ...details: unknown[]) => {
    const out = target();
    if (!out.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const words: string[] = [];
    for (const detail of [message, ...details]) {
      if (detail instanceof Error) fields.err ??= detail;
      else if (detail && typeof detail === "object") Object.assign(fields, detail);
      else if (detail !== undefined) words.push(String(detail));
    }
    out[level](fields, words.join(" "));
  };
}

export interface AppLogger {
  debug(message: unknown, ...details: unknown[]): void;
  info(message: unknown, ...details: unknown[]): void;
  warn(message: unknown, ...details: unknown[]): void;
  error(message: unknown, ...details: unknown[]): void;
  /** A logger whose every line carries `fields` too. */
  child(fields: Record<string, unknown>): AppLogger;
}

function wrap(target: () => Logger): AppLogger {
  return {
    debug: at("debug", target),
    info: at("info", target),
    warn: at("warn", target),
    error: at("error", target),
    child: (fields) => {
      const child = target().child(fields);
      return wrap(() => child);
    },
  };
}

export const logger: AppLogger = wrap(() => log);
