// The retention sweeper: with RETENTION set, expired dialogs are deleted every
// RETENTION_SWEEP_INTERVAL through the history writes, so their subscribers' streams end.
import { logger } from "../logger.js";
import type { HistoryWrites } from "./history-writes.js";

export interface Sweeper {
  stop(): Promise<void>;
}

export interface SweeperOptions {
  /** RETENTION_SWEEP_INTERVAL. */
  intervalMs: number;
  batchSize?: number;
  /** Defaults to the store's (RETENTION). */
  retention?: number | null;
  /** What "now" is at each sweep; tests move it by hand. */
  clock?: () => Date;
}

/** Runs writes.sweepExpired every `intervalMs` (and once now); null when retention is off. */
export function startSweeper(writes: HistoryWrites, options: SweeperOptions): Sweeper | null {
  const { intervalMs, batchSize, retention = writes.retentionMs, clock = () => new Date() } = options;
  if (retention == null) return null;
  let running: Promise<void> | null = null;
  const sweep = () => {
    // A slow sweep is never stacked on another.
    running ??= writes
      .sweepExpired({ now: clock(), batchSize, retention })
      .then(({ deletedDialogIds }) => {
        if (deletedDialogIds.length) logger.info(`retention: deleted ${deletedDialogIds.length} expired dialogs`);
      })
      .catch((error) => logger.error("retention sweep failed", error))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  sweep();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
