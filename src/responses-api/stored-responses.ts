// Reading and listing the input of stored responses for the Responses API (deleting one is a
// history write: src/history-writes/). Tenant checks happen before these are called
// (src/auth/tenant-scope.ts).
import { NotFoundError } from "../errors.js";
import { itemsFromEvents } from "../generation/output-items.js";
import type { Store } from "../store/store.js";
import { listedItem } from "./listed-items.js";
import type { ResponseView } from "./response-object.js";

export async function readResponseView({ prisma }: Store, id: string): Promise<ResponseView> {
  const response = await prisma.response.findUnique({
    where: { id },
    include: { events: { where: { phase: "OUTPUT" }, orderBy: { seq: "asc" } } },
  });
  if (!response) throw NotFoundError.response(id);
  return {
    id: response.id,
    createdAt: response.createdAt,
    completedAt: response.completedAt,
    status: response.status,
    model: response.model,
    previousResponseId: response.previousResponseId,
    dialogId: response.dialogId,
    output: itemsFromEvents(response.id, response.events),
    usage: response.inputTokens == null && response.outputTokens == null ? null : response,
    error: response.error,
    metadata: response.metadata,
    store: true,
  };
}

export interface InputItemsPage {
  limit: number;
  order: "asc" | "desc";
  after: string | null;
}

/** The response's own input (not its context), as Responses input items with ids, a page at a time. */
export async function listInputItems({ prisma }: Store, responseId: string, page: InputItemsPage) {
  const events = await prisma.event.findMany({ where: { responseId, phase: "INPUT" }, orderBy: { seq: page.order } });
  const items = events.map((event) => listedItem(event.id, event));
  const start = page.after ? items.findIndex((item) => item.id === page.after) + 1 : 0;
  const data = items.slice(start, start + page.limit);
  return {
    object: "list" as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
    has_more: start + page.limit < items.length,
  };
}
