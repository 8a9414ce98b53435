// OpenAI's Conversations API at /v1/conversations: a conversation is a dialog, with one id for
// both (the dialog's ULID), so `conversation` on responses.create, GraphQL's `dialog(id:)` and
// the viewer's /dialogs/<id> all name the same thing. Its items are the dialog's history (the
// head's context); its metadata is the dialog's. Writes go through the history writes (the one
// door, src/history-writes/), so historyDelta watchers see items added and the conversation deleted.
import type { TenantScope } from "../auth/tenant-scope.js";
import { ApiError, json } from "./api-errors.js";
import { addConversationItems, conversationItems, isItemOf, MAX_ITEMS_PER_CALL, pageOf } from "./conversation-items.js";
import type { ResponsesDeps } from "./create-response.js";
import { readBody } from "./create-response.js";
import { InvalidRequest } from "./invalid-request.js";
import { findItemEvents } from "./item-references.js";
import { deleteConversationItem, itemNotFound } from "./conversation-item-delete.js";
import { listedItem } from "./listed-items.js";
import { inputItemsPage, notAllowed, useApiRoutes } from "./responses-plugin.js";
import { parseConversationBody } from "./conversation-request.js";

const conversationRoute = /^\/v1\/conversations(?:\/([^/]+)(?:\/(items)(?:\/([^/]+))?)?)?\/?$/;

export const useConversationsApi = (deps: ResponsesDeps) => useApiRoutes(deps, "/v1/conversations", route);

async function route(request: Request, url: URL, scope: TenantScope, deps: ResponsesDeps) {
  const match = conversationRoute.exec(url.pathname);
  if (!match) throw new ApiError(404, `No route ${request.method} ${url.pathname}`, "invalid_request_error");
  const [, rawId, items, rawItemId] = match;
  const { method } = request;
  if (!rawId) {
    if (method === "POST") return json(200, await create(request, scope, deps));
    return notAllowed(method, url);
  }
  const id = decodeURIComponent(rawId);
  await scope.dialog(id, ApiError.conversationNotFound);
  if (!items) {
    if (method === "GET") return json(200, await conversationObject(deps, id));
    if (method === "POST") return json(200, await update(request, id, deps));
    if (method === "DELETE") return json(200, await remove(id, deps));
    return notAllowed(method, url);
  }
  if (!rawItemId) {
    if (method === "GET") return json(200, pageOf(await conversationItems(deps, id), itemsPage(url)));
    if (method === "POST") return json(200, await addItems(request, scope, id, deps));
    return notAllowed(method, url);
  }
  const itemId = decodeURIComponent(rawItemId);
  if (method === "GET") return json(200, await item(scope, id, itemId, deps));
  if (method === "DELETE") {
    await deleteConversationItem(deps, scope.tenantId, id, itemId);
    return json(200, await conversationObject(deps, id));
  }
  return notAllowed(method, url);
}

async function conversationObject({ store }: ResponsesDeps, id: string) {
  const dialog = await store.prisma.dialog.findUnique({ where: { id } });
  if (!dialog) throw ApiError.conversationNotFound(id);
  return {
    id: dialog.id,
    object: "conversation" as const,
    created_at: Math.floor(dialog.createdAt.getTime() / 1000),
    metadata: dialog.metadata,
  };
}

async function create(request: Request, scope: TenantScope, deps: ResponsesDeps) {
  const body = parseConversationBody(await readBody(request), { itemsAllowed: true });
  if ((body.items?.length ?? 0) > MAX_ITEMS_PER_CALL) {
    throw new InvalidRequest(`Invalid 'items': at most ${MAX_ITEMS_PER_CALL} items at a time.`, "items");
  }
  const { id } = await deps.writes.createDialog({ metadata: body.metadata ?? {} }, scope.tenantId);
  deps.tenants.rememberWrite({ dialogId: id, responseId: null }, scope.tenantId);
  try {
    await addConversationItems(deps, scope.tenantId, id, body.items ?? []);
  } catch (error) {
    // Bad items: nothing is kept, the new conversation included.
    await deps.writes.deleteDialog(id);
    throw error;
  }
  return conversationObject(deps, id);
}

async function update(request: Request, id: string, deps: ResponsesDeps) {
  const body = parseConversationBody(await readBody(request), { itemsAllowed: false });
  if (!body.metadata) throw new InvalidRequest("Missing required parameter: 'metadata'.", "metadata");
  await deps.writes.updateDialog(id, { metadata: body.metadata });
  return conversationObject(deps, id);
}

async function remove(id: string, deps: ResponsesDeps) {
  await deps.writes.deleteDialog(id);
  return { id, object: "conversation.deleted" as const, deleted: true };
}

async function addItems(request: Request, scope: TenantScope, id: string, deps: ResponsesDeps) {
  const body = await readBody(request);
  const data = await addConversationItems(deps, scope.tenantId, id, (body as { items?: unknown } | null)?.items);
  return {
    object: "list" as const,
    data,
    first_id: (data[0]?.id as string | undefined) ?? null,
    last_id: (data.at(-1)?.id as string | undefined) ?? null,
    has_more: false,
  };
}

async function item(scope: TenantScope, dialogId: string, itemId: string, deps: ResponsesDeps) {
  const event = (await findItemEvents(deps.store, scope.tenantId, [itemId])).get(itemId);
  if (!isItemOf(event, dialogId)) throw itemNotFound(itemId);
  return listedItem(itemId, event);
}

// `include` adds nothing: stored items are listed whole (there are no built-in tool outputs or
// logprobs stored to add).
const itemsPage = inputItemsPage;
