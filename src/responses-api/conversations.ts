// OpenAI's Conversations API at /v1/conversations: a conversation is a dialog, with one id for
// both (the dialog's ULID), so `conversation` on responses.create, GraphQL's `dialog(id:)` and
// the viewer's /dialogs/<id> all name the same thing. Its items are the dialog's history (the
// head's context); its metadata is the dialog's. Writes go through the history writes (the one
// door, src/history-writes/), so historyDelta watchers see items added and the conversation deleted.
import type { TenantScope } from "../auth/tenant-scope.js";
import { ApiError, json } from "./api-errors.js";
import { addConversationItems, conversationItems, isItemOf, MAX_ITEMS_PER_CALL, pageOf } from "./conversation-items.js";
import type { ApiCall, ApiRoute, ResponsesDeps } from "./responses-deps.js";
import { readBody } from "./create-response.js";
import { InvalidRequest } from "./invalid-request.js";
import { findItemEvents } from "./item-references.js";
import { deleteConversationItem, itemNotFound } from "./conversation-item-delete.js";
import { inputItemsPage, listedItem } from "./listed-items.js";
import { parseConversationBody } from "./conversation-request.js";

/** The path's conversation, if the caller's tenant has it; otherwise 404. */
const ownDialog = (call: ApiCall) => call.scope.dialog(call.params.id!, ApiError.conversationNotFound);

export const conversationRoutes: ApiRoute[] = [
  {
    methods: ["POST"],
    path: "/v1/conversations",
    handler: async (request, call) => json(200, await create(request, call)),
  },
  {
    methods: ["GET", "POST", "DELETE"],
    path: "/v1/conversations/:id",
    async handler(request, call) {
      const id = call.params.id!;
      await ownDialog(call);
      if (request.method === "POST") return json(200, await update(request, id, call));
      if (request.method === "DELETE") return json(200, await remove(id, call));
      return json(200, await conversationObject(call, id));
    },
  },
  {
    methods: ["GET", "POST"],
    path: "/v1/conversations/:id/items",
    async handler(request, call) {
      const id = call.params.id!;
      await ownDialog(call);
      if (request.method === "POST") return json(200, await addItems(request, call.scope, id, call));
      return json(200, pageOf(await conversationItems(call, id), itemsPage(call.url)));
    },
  },
  {
    methods: ["GET", "DELETE"],
    path: "/v1/conversations/:id/items/:itemId",
    async handler(request, call) {
      const { id, itemId } = call.params as { id: string; itemId: string };
      await ownDialog(call);
      if (request.method === "GET") return json(200, await item(call.scope, id, itemId, call));
      await deleteConversationItem(call, call.scope.tenantId, id, itemId);
      return json(200, await conversationObject(call, id));
    },
  },
];

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

async function create(request: Request, deps: ApiCall) {
  const { scope } = deps;
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
