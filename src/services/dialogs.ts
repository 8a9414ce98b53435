// Dialog-level writes. Each returns the dialog's id; the schema re-reads what the query selects.
import { type FieldError, NotFoundError, ValidationError } from "../errors.js";
import type { Prisma } from "../generated/prisma/client.js";
import { newDialogId } from "../ids.js";
import { deleteDialogRow, insertDialog, updateDialogRow } from "../store/dialog-rows.js";
import { writeDialog } from "../store/locked-dialog.js";
import type { Store } from "../store/store.js";
import { jsonObject } from "./json.js";
import type { Json } from "../vocabulary/json.js";
import { dialogExpired } from "./retention.js";
import type { WriteResult } from "./write-result.js";

export interface DialogFieldsInput {
  title?: string | null;
  metadata?: Json | null;
}

const MAX_TITLE_LENGTH = 500;

export function parseDialogFields(input: DialogFieldsInput) {
  const errors: FieldError[] = [];
  if (input.title != null && input.title.length > MAX_TITLE_LENGTH) {
    errors.push({ path: ["title"], message: `at most ${MAX_TITLE_LENGTH} characters` });
  }
  const metadata = input.metadata === undefined ? undefined : jsonObject(input.metadata, ["metadata"], errors);
  if (errors.length) throw new ValidationError(errors);
  return { title: input.title, metadata: metadata as Prisma.InputJsonObject | undefined };
}

export async function createDialog(store: Store, input: DialogFieldsInput, tenantId: string) {
  const { title, metadata } = parseDialogFields(input);
  return insertDialog(store, { id: newDialogId(), tenantId, title: title ?? null, metadata });
}

export async function updateDialog(store: Store, id: string, input: DialogFieldsInput) {
  const { title, metadata } = parseDialogFields(input);
  // An expired dialog is gone for writes, even before the sweeper deletes it.
  const outcome = await updateDialogRow(store, id, {
    title: input.title === undefined ? undefined : (title ?? null),
    metadata,
  });
  if (outcome === "expired") throw dialogExpired(id);
  if (outcome === "missing") throw NotFoundError.dialog(id);
  return { id };
}

export async function deleteDialog(store: Store, id: string) {
  if (!(await deleteDialogRow(store, id))) throw NotFoundError.dialog(id);
  return { id, dialogId: id, deleted: true as const };
}

/** What clearDialog changed: no seq moved (previousSeq = seq), every response went. */
export interface ClearResult extends Omit<WriteResult, "responseId" | "status"> {
  responseId: null;
  cleared: true;
  deletedResponses: number;
}

/**
 * Clearing a dialog: every response and event of the dialog goes; the dialog stays, empty, with
 * no head. `lastSeq` keeps its value, so the next event is lastSeq + 1: a seq is never reused in a
 * dialog, and a live client that saw seq n is never shown a different event numbered n. Clearing
 * is a write, and extends retention.
 */
export async function clearDialog(store: Store, id: string): Promise<ClearResult> {
  const outcome = await writeDialog(store, { id }, (write) => write.removeAllResponses());
  return {
    dialogId: id,
    responseId: null,
    previousSeq: outcome.previousSeq,
    seq: outcome.seq,
    cleared: true,
    deletedResponses: outcome.value,
  };
}
