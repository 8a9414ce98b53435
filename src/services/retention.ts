// Retention (seed 002): with RETENTION set, a dialog nobody has written to for that long expires —
// writes to it are refused at once, and a background sweeper deletes it with its responses and
// events. Any write extends a dialog, because every write updates its row (Dialog.updatedAt).
// The sweeper deletes in small batches, each one short statement that skips dialogs a writer holds,
// so it never makes a request wait and a dialog being written to is never deleted under it.
import { logger } from "../logger.js";
import { deleteExpiredDialogs } from "../store/dialog-rows.js";
import type { Store } from "../store/store.js";

export {
  chainTargetNotFound,
  dialogExpired,
  expiresAt,
  isExpired,
  responseExpired,
} from "../store/retention-window.js";

export const DEFAULT_SWEEP_BATCH = 50;

export interface SweepOptions {
  now?: Date;
  /** Dialogs deleted per statement (with their responses and events). */
  batchSize?: number;
  /** Defaults to the store's (RETENTION). */
  retention?: number | null;
}

/** Deletes every dialog expired at `now`, batch by batch; returns their ids. */
export async function sweepExpired(store: Store, options: SweepOptions = {}): Promise<{ deletedDialogIds: string[] }> {
  const { now = new Date(), batchSize = DEFAULT_SWEEP_BATCH, retention = store.retentionMs } = options;
  if (retention == null) return { deletedDialogIds: [] };
  return { deletedDialogIds: await deleteExpiredDialogs(store, now, retention, batchSize) };
}

export interface Sweeper {
  stop(): Promise<void>;
}

export interface SweeperOptions {
  /** RETENTION_SWEEP_INTERVAL. */
  intervalMs: number;
  batchSize?: number;
  retention?: number | null;
  /** What "now" is at each sweep; tests move it by hand. */
  clock?: () => Date;
}

/** Runs sweepExpired every `intervalMs` (and once now); null when retention is off. */
export function startSweeper(store: Store, options: SweeperOptions): Sweeper | null {
  const { intervalMs, batchSize, retention = store.retentionMs, clock = () => new Date() } = options;
  if (retention == null) return null;
  let running: Promise<void> | null = null;
  const sweep = () => {
    // A slow sweep is never stacked on another.
    running ??= sweepExpired(store, { now: clock(), batchSize, retention })
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
