// Storing one turn (createResponse): in one statement when nothing has to be checked against the
// history, or through the write primitive when something does (a tool result's call must be in
// the context the turn continues), so the check runs under the dialog's lock and sees every
// write that committed before it.
import type { SqlRunner } from "./sql.js";
import type { Store } from "./store.js";
import { writeDialog } from "./locked-dialog.js";
import { dialogExpired, responseExpired } from "./retention-window.js";
import { NotFoundError } from "../errors.js";
import type { NewTurn } from "./rows.js";
import { insertTurn, type StoredTurn } from "./write-turn.js";

export interface TurnWrite {
  turn: NewTurn;
  /** An existing dialog to continue, or a new one to create with this turn as root (`tenantId` is stamped on it). */
  dialog: { id: string; isNew: boolean; tenantId: string };
  /** The explicit parent; null means the dialog's head (or none, for a new dialog). */
  parent: { id: string; depth: number } | null;
  /** With no parent: a new first turn of the existing dialog (a branch from its start), not its head's next. */
  fromStart?: boolean;
  /** Checks the turn against the context it continues (`tip`: the response it chains to), under the lock. */
  checkUnderLock?: (session: SqlRunner, tip: { id: string } | null) => Promise<void>;
  now: Date;
}

export async function writeTurn(store: Store, write: TurnWrite): Promise<StoredTurn> {
  const { turn, dialog, parent, now, checkUnderLock, fromStart = false } = write;
  const whenExpired = () => (parent ? responseExpired(parent.id) : dialogExpired(dialog.id));
  if (!checkUnderLock) {
    const stored = await insertTurn(store, { ...turn, dialog, parent, fromStart, now });
    if (stored === "not-found") throw NotFoundError.dialog(dialog.id);
    if (stored === "expired") throw whenExpired();
    return stored;
  }
  const target = dialog.isNew
    ? { create: { id: dialog.id, tenantId: dialog.tenantId } }
    : { id: dialog.id, whenExpired };
  const outcome = await writeDialog(
    store,
    target,
    async (locked) => {
      const tip = fromStart ? null : (parent ?? locked.head);
      await checkUnderLock(locked.session, tip);
      const [response] = await locked.addTurns([turn], tip);
      return response!;
    },
    now,
  );
  return {
    previousSeq: outcome.previousSeq,
    depth: outcome.value.depth,
    response: outcome.value,
    dialog: outcome.dialog,
  };
}
