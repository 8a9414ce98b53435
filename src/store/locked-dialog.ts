// Taking a dialog for one write: its row locked FOR UPDATE (or a new one inserted) in the write's
// transaction, and the transaction itself (writeDialog), which runs the work on a DialogWrite and
// commits. Nothing is visible to anyone, nor published, before the commit. On PostgreSQL the
// transaction's BEGIN travels with the lock and its COMMIT with the dialog row's statement
// (src/db/postgres-database.ts), so a write of two statements is two round trips.
import { Prisma } from "../generated/prisma/client.js";
import type { Dialog } from "../generated/prisma/client.js";
import { NotFoundError } from "../errors.js";
import type { DialogTarget, LockedDialog, NewDialog } from "./dialog-target.js";
import { DialogWrite } from "./dialog-write.js";
import type { DeltaRows } from "./held-changes.js";
import { responseForWrite, type ResponseForWrite } from "./response-for-write.js";
import { dialogExpired, isExpired } from "./retention-window.js";
import { run, type SqlRunner } from "./sql.js";
import type { Store } from "./store.js";
import { countCharges, type LedgerEntry } from "./usage.js";

/** What a write committed: the dialog row as it left it and the seq range it used. */
export interface DialogWriteOutcome<T> {
  value: T;
  dialog: Dialog;
  previousSeq: number;
  seq: number;
  /** The one response's events and row as the write left them, when it changed only those (DialogWrite.finish). */
  delta?: DeltaRows;
}

/**
 * Runs `work` on `target` locked (or created) in one transaction, then writes the dialog row and
 * commits. Nothing is visible to anyone, nor published, before the commit.
 */
export async function writeDialog<T>(
  store: Store,
  target: DialogTarget,
  work: (write: DialogWrite) => Promise<T>,
  now = new Date(),
): Promise<DialogWriteOutcome<T>> {
  let charges: LedgerEntry[] = [];
  const transaction = () =>
    store.database.transaction(async (session) => {
      const dialog =
        "create" in target
          ? await createDialogRow(session, target.create, now)
          : await lockDialog(session, target, now, store.retentionMs);
      const write = new DialogWrite(dialog, session, now, store.prices);
      const value = await work(write);
      // The dialog row is the last statement: the commit goes out with it (one round trip).
      const commits = { query: <R>(sql: string, params?: unknown[]) => session.queryAndCommit<R>(sql, params) };
      const { dialog: row, delta } = await write.finish("id" in target ? target.withResponse?.id : undefined, commits);
      charges = write.charges;
      return { value, dialog: row, previousSeq: dialog.lastSeq, seq: write.seq, delta };
    });
  // A new dialog has no other writer to wait for; an existing one's writers take turns for the pool.
  const outcome = await ("create" in target ? transaction() : store.dialogWriters.run(target.id, transaction));
  // Counted once committed: a rolled-back write spent nothing.
  countCharges(store.prices, charges);
  return outcome;
}

/**
 * Locks the dialog row for the rest of the transaction. The head's depth comes from the row itself
 * (headDepth): in READ COMMITTED a statement that waited for the lock re-reads the locked row but
 * not rows joined to it. A dialog past its retention is gone for writes.
 */
export async function lockDialog(
  session: SqlRunner,
  target: Exclude<DialogTarget, { create: NewDialog }>,
  now: Date,
  retention: number | null,
): Promise<LockedDialog> {
  const [dialog] = await run<LockedDialog & LockPeek>(
    Prisma.sql`SELECT id, "tenantId", "lastSeq", "headId", "headDepth", "updatedAt"${peekWithLock(target)}
      FROM "Dialog" WHERE id = ${target.id} FOR UPDATE`,
    session,
  );
  if (!dialog) throw target.whenMissing?.() ?? NotFoundError.dialog(target.id);
  if (isExpired(dialog.updatedAt, now, retention)) throw target.whenExpired?.() ?? dialogExpired(target.id);
  const { unchanged, response, ...locked } = dialog;
  // Read as of the statement's start: right under the lock only if no write changed the dialog
  // row since (every write that changes a response writes its dialog row, under this lock).
  if (target.withResponse && unchanged) locked.peeked = { id: target.withResponse.id, row: response ?? null };
  return locked;
}

interface LockPeek {
  /** Whether the row locked is the version the statement's snapshot sees (see peekWithLock). */
  unchanged?: boolean;
  response?: ResponseForWrite | null;
}

/**
 * The response a write will read first, read by the statement that takes the lock, saving a round
 * trip. In READ COMMITTED a statement that waited for the lock gets the newest version of the
 * locked row but reads every other row as of its start, before the writer it waited for
 * committed; so the read is used only when the locked row's version (xmin) is the one the
 * statement's snapshot sees, i.e. no write to the dialog committed in between.
 */
function peekWithLock(target: Exclude<DialogTarget, { create: NewDialog }>) {
  if (!target.withResponse) return Prisma.empty;
  const { id, forEnd } = target.withResponse;
  return Prisma.sql`, xmin::text = (SELECT s.xmin::text FROM "Dialog" s WHERE s.id = ${target.id}) AS unchanged,
    (SELECT to_jsonb(x) FROM (${responseForWrite(target.id, id, forEnd)}) x) AS response`;
}

async function createDialogRow(session: SqlRunner, dialog: NewDialog, now: Date): Promise<LockedDialog> {
  const at = now.toISOString();
  await run(
    Prisma.sql`INSERT INTO "Dialog" (id, "tenantId", title, metadata, "forkedFromId", "importKey", "createdAt", "updatedAt")
      VALUES (${dialog.id}, ${dialog.tenantId}, ${dialog.title ?? null}, ${JSON.stringify(dialog.metadata ?? {})}::jsonb,
        ${dialog.forkedFromId ?? null}, ${dialog.importKey ?? null}, ${dialog.createdAt?.toISOString() ?? at}::timestamp,
        ${at}::timestamp)`,
    session,
  );
  return { id: dialog.id, tenantId: dialog.tenantId, lastSeq: 0, headId: null, headDepth: null, updatedAt: now };
}
