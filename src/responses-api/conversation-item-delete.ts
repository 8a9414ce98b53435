// DELETE /v1/conversations/{id}/items/{item_id}. A dialog's history is append-only (seqs are never
// reused), so deleting an item branches: the turns from the one holding the item to the head are
// written again, without it, as a new branch from that turn's parent, and the head moves there —
// the old branch stays reachable (GraphQL `branches`). When the item is all that is left of the
// head turn, that turn is deleted instead and the head moves back to its parent.
import { NotFoundError } from "../errors.js";
import { readContext } from "../services/context.js";
import { ApiError } from "./api-errors.js";
import { inputItemOf, withItemIds } from "./item-references.js";
import type { ResponsesDeps } from "./responses-deps.js";

export async function deleteConversationItem(deps: ResponsesDeps, tenantId: string, dialogId: string, itemId: string) {
  const dialog = await deps.store.prisma.dialog.findUnique({ where: { id: dialogId }, select: { headId: true } });
  if (!dialog) throw NotFoundError.dialog(dialogId);
  const events = dialog.headId ? await readContext(dialog.headId, null, deps.store.database, dialogId) : [];
  const listed = withItemIds(events);
  const at = listed.findIndex(([id]) => id === itemId);
  if (at < 0) throw itemNotFound(itemId);
  const holder = listed[at]![1].responseId;
  const from = listed.findIndex(([, event]) => event.responseId === holder);
  const rest = listed.slice(from).filter((_, index) => index + from !== at);
  if (!rest.length && holder === dialog.headId) {
    await deps.writes.deleteResponse(holder, dialogId);
    return;
  }
  const turn = await deps.store.prisma.response.findUniqueOrThrow({ where: { id: holder } });
  if (!turn.previousResponseId) {
    throw new ApiError(
      400,
      `Item '${itemId}' is in the conversation's first turn, which cannot be rewritten without it; start a new conversation from the items you keep.`,
      "invalid_request_error",
      "item_id",
      "unsupported_operation",
    );
  }
  const write = await deps.writes.importMessages({
    dialogId,
    previousResponseId: turn.previousResponseId,
    format: "OPENAI_RESPONSES",
    messages: rest.map(([, event]) => inputItemOf(event)),
    tenantId,
    complete: true,
  });
  deps.tenants.rememberWrite(write, tenantId);
}

export const itemNotFound = (id: string) =>
  new ApiError(404, `Item with id '${id}' not found.`, "invalid_request_error", null, "item_not_found");
