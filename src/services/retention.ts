// Retention (seed 002): with RETENTION set, a dialog nobody has written to for that long expires —
// writes to it are refused at once, and a background sweeper deletes it with its responses and
// events. Any write extends a dialog, because every write updates its row (Dialog.updatedAt).
// The sweeper deletes in small batches, each one short statement that skips dialogs a writer holds,
// so it never makes a request wait and a dialog being written to is never deleted under it.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { config } from "../config.js";
import { prisma } from "../db/prisma.js";
import { NotFoundError } from "../errors.js";
import { logger } from "../logger.js";

/** Milliseconds a dialog is kept after its last write; null keeps dialogs forever. */
export const retentionMs: number | null = config.RETENTION ?? null;

export const DEFAULT_SWEEP_BATCH = 50;

export const expiresAt = (updatedAt: Date, retention = retentionMs) =>
  retention == null ? null : new Date(updatedAt.getTime() + retention);

export const isExpired = (updatedAt: Date, now = new Date(), retention = retentionMs) =>
  retention != null && updatedAt.getTime() + retention <= now.getTime();

/** A write chained to a response that is not there: say it may have expired, when it could have. */
export const chainTargetNotFound = (responseId: string) =>
  new NotFoundError(
    `Response ${responseId} not found (it may have ${retentionMs == null ? "" : "expired or "}been deleted)`,
  );

export const responseExpired = (responseId: string) =>
  new NotFoundError(`Response ${responseId} not found (it has expired)`);

export const dialogExpired = (dialogId: string) => new NotFoundError(`Dialog ${dialogId} not found (it has expired)`);

export interface SweepOptions {
  now?: Date;
  /** Dialogs deleted per statement (with their responses and events). */
  batchSize?: number;
  /** Defaults to RETENTION. */
  retention?: number | null;
}

/** Deletes every dialog expired at `now`, batch by batch; returns their ids. */
export async function sweepExpired(options: SweepOptions = {}): Promise<{ deletedDialogIds: string[] }> {
  const { now = new Date(), batchSize = DEFAULT_SWEEP_BATCH, retention = retentionMs } = options;
  const deletedDialogIds: string[] = [];
  if (retention == null) return { deletedDialogIds };
  // updatedAt is a timestamp without time zone holding UTC; the cast makes the comparison UTC too.
  const cutoff = new Date(now.getTime() - retention).toISOString();
  for (;;) {
    const batch = await prisma.$queryRaw<{ id: string }[]>`
      DELETE FROM "Dialog" WHERE id IN (
        SELECT id FROM "Dialog" WHERE "updatedAt" <= ${cutoff}::timestamp
        ORDER BY "updatedAt" LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    deletedDialogIds.push(...batch.map((row) => row.id));
    if (batch.length < batchSize) return { deletedDialogIds };
    // Let requests waiting on the event loop (and, embedded, on the one PGlite connection) go first.
    await yieldToEventLoop();
  }
}

export interface Sweeper {
  stop(): Promise<void>;
}

/** Runs sweepExpired every `intervalMs` (and once now); null when retention is off. */
export function startSweeper(
  options: { intervalMs?: number; batchSize?: number; retention?: number | null } = {},
): Sweeper | null {
  const { intervalMs = config.RETENTION_SWEEP_INTERVAL, batchSize, retention = retentionMs } = options;
  if (retention == null) return null;
  let running: Promise<void> | null = null;
  const sweep = () => {
    // A slow sweep is never stacked on another.
    running ??= sweepExpired({ batchSize, retention })
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
