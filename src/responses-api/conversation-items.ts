// A conversation's items are its dialog's history: the events of the head's context, root first,
// each with the id the Responses API gives it (src/responses-api/item-references.ts). Adding items
// imports them (Responses input items, the format importMessages reads) as complete turns chained
// to the head, in one write through the history writes (published like every other).
import { NotFoundError } from "../errors.js";
import type { Event } from "../generated/prisma/client.js";
import { readContext } from "../services/context.js";
import type { StoredTurnsDeps } from "../generation/turn-sink.js";
import { InvalidRequest } from "./invalid-request.js";
import { resolveItemReferences, withItemIds } from "./item-references.js";
import { listedItem } from "./listed-items.js";

/** The API's limit on items added in one call. */
export const MAX_ITEMS_PER_CALL = 20;

export interface ItemsPage {
  limit: number;
  order: "asc" | "desc";
  after: string | null;
}

/** The dialog's history as listed items, oldest first. */
export async function conversationItems({ store }: StoredTurnsDeps, dialogId: string) {
  const dialog = await store.prisma.dialog.findUnique({ where: { id: dialogId }, select: { headId: true } });
  if (!dialog) throw NotFoundError.dialog(dialogId);
  const events = dialog.headId ? await readContext(dialog.headId, null, store.database) : [];
  return withItemIds(events).map(([id, event]) => listedItem(id, event));
}

export function pageOf(items: Record<string, unknown>[], page: ItemsPage) {
  const ordered = page.order === "asc" ? items : [...items].reverse();
  const start = page.after ? ordered.findIndex((item) => item.id === page.after) + 1 : 0;
  const data = ordered.slice(start, start + page.limit);
  return {
    object: "list" as const,
    data,
    first_id: (data[0]?.id as string | undefined) ?? null,
    last_id: (data.at(-1)?.id as string | undefined) ?? null,
    has_more: start + page.limit < ordered.length,
  };
}

/** Adds `items` after the head (or starts the history of an empty dialog); returns them as listed. */
export async function addConversationItems(
  deps: StoredTurnsDeps,
  tenantId: string,
  dialogId: string,
  raw: unknown,
  param = "items",
) {
  if (!Array.isArray(raw)) throw new InvalidRequest(`Invalid '${param}': expected an array of items.`, param);
  if (raw.length > MAX_ITEMS_PER_CALL) {
    throw new InvalidRequest(`Invalid '${param}': at most ${MAX_ITEMS_PER_CALL} items at a time.`, param);
  }
  if (!raw.length) return [];
  const items = await resolveItemReferences(deps.store, tenantId, raw);
  const write = await deps.writes
    .importMessages({
      dialogId,
      format: "OPENAI_RESPONSES",
      messages: items,
      tenantId,
      complete: true,
    })
    .catch((error: unknown) => {
      throw renamed(error, param);
    });
  deps.tenants.rememberWrite(write, tenantId);
  const events = await deps.store.prisma.event.findMany({
    where: { responseId: { in: write.responseIds } },
    orderBy: { seq: "asc" },
  });
  return withItemIds(events).map(([id, event]) => listedItem(id, event));
}

/** The importer names the list `messages`; the API calls it `items`. */
function renamed(error: unknown, param: string) {
  if (error && typeof error === "object" && "fieldErrors" in error) {
    const fieldErrors = (error as { fieldErrors: { path: string[] }[] }).fieldErrors;
    for (const field of fieldErrors) if (field.path[0] === "messages") field.path[0] = param;
  }
  return error;
}

/** One item of the dialog's history by its id (any branch of the dialog). */
export function isItemOf(event: Event | undefined, dialogId: string): event is Event {
  return event?.dialogId === dialogId;
}
