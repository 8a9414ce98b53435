// A small leveled logger (Yoga's logger interface), quiet in tests unless LOG_LEVEL says otherwise.
import { config } from "../config.js";

const levels = ["debug", "info", "warn", "error", "silent"] as const;
const threshold = levels.indexOf(config.LOG_LEVEL);

const at =
  (level: (typeof levels)[number], write: (...args: unknown[]) => void) =>
  (...args: unknown[]) => {
    if (levels.indexOf(level) >= threshold) write(`[${level}]`, ...args);
  };

export const logger = {
  debug: at("debug", console.debug),
  info: at("info", console.info),
  warn: at("warn", console.warn),
  error: at("error", console.error),
};
