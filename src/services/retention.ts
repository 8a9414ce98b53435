// Retention: with RETENTION set, a dialog nobody has written to for that long expires —
// writes to it are refused at once, and a background sweeper deletes it with its responses and
// events. Any write extends a dialog, because every write updates its row (Dialog.updatedAt).
// The sweep deletes in small batches, each one short statement that skips dialogs a writer holds,
// so it never makes a request wait and a dialog being written to is never deleted under it. The
// sweeper that runs it (and tells subscribers) is src/history-writes/retention-sweeper.ts.
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
