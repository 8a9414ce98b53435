// Deleting one response with its events (the Responses API's DELETE /v1/responses/{id}). A
// response that others continue is kept (deleting it would take their context away); when it was
// its dialog's head, the head moves back to its parent. No seq moves: the answer names the
// dialog's last seq, for the delta that tells subscribers (src/history-writes/).
import { ConflictError, NotFoundError } from "../errors.js";
import { writeDialog } from "../store/locked-dialog.js";
import type { Store } from "../store/store.js";

export interface ResponseDeleted {
  dialogId: string;
  responseId: string;
  responseDeleted: true;
  previousSeq: number;
  seq: number;
}

export async function deleteResponse(store: Store, id: string, dialogId: string): Promise<ResponseDeleted> {
  const target = { id: dialogId, whenMissing: () => NotFoundError.response(id) };
  const outcome = await writeDialog(store, target, (write) => write.removeLeafResponse(id));
  if (outcome.value === "not-found") throw NotFoundError.response(id);
  if (outcome.value === "continued") {
    throw new ConflictError(`Response ${id} is continued by other responses; delete those first`);
  }
  return { dialogId, responseId: id, responseDeleted: true, previousSeq: outcome.seq, seq: outcome.seq };
}
