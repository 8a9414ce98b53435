// GET /api/dialogs/{dialog_id}/history (docs/api.md), exactly as its first users read it: snake_case fields,
// null fields left out, only its four event types (human, AI, reasoning, tool call), totals counting what is shown.
// `?response_id=` reads another branch than the head.
import type { TenantScope } from "../auth/tenant-scope.js";
import type { HistoryEventType } from "../generated/prisma/enums.js";
import { isStorableText } from "../vocabulary/storable-text.js";
import { joinedText, type Part } from "../vocabulary/parts.js";
import { readContext } from "../services/context.js";
import type { Store } from "../store/store.js";

const endpointTypes = ["HUMAN", "AI", "REASONING", "TOOL_CALL"] as const satisfies HistoryEventType[];

type Message = Record<string, unknown>;

/** The history of `dialogId` as the caller's tenant sees it: another tenant's dialog is not found. */
export async function handleHistoryRequest(
  { prisma, database }: Store,
  dialogId: string,
  url: URL,
  scope: Pick<TenantScope, "tenantId">,
): Promise<globalThis.Response> {
  const responseId = url.searchParams.get("response_id");
  // Text PostgreSQL cannot even compare (a NUL) names nothing that exists.
  if (!isStorableText(dialogId)) return json(404, { detail: `Dialog ${dialogId} not found` });
  if (responseId && !isStorableText(responseId)) return json(404, { detail: `Response ${responseId} not found` });
  const dialog = await prisma.dialog.findUnique({
    where: { id: dialogId, tenantId: scope.tenantId },
    select: { headId: true },
  });
  if (!dialog) return json(404, { detail: `Dialog ${dialogId} not found` });
  let tip = dialog.headId;
  if (responseId) {
    const response = await prisma.response.findUnique({ where: { id: responseId, dialogId }, select: { id: true } });
    if (!response) return json(404, { detail: `Response ${responseId} not found` });
    tip = responseId;
  }
  const events = tip ? await readContext(tip, endpointTypes, database, dialogId) : [];
  const messages = events.map(toSeedMessage);
  return json(200, {
    dialog_id: dialogId,
    messages,
    total_messages: messages.length,
    total_reasoning: messages.filter((m) => m.type === "reasoning").length,
    total_tool_calls: messages.filter((m) => m.type === "tool_call").length,
  });
}

function toSeedMessage(event: {
  type: HistoryEventType;
  content: string | null;
  parts: unknown;
  modelName: string | null;
  toolName: string | null;
  args: unknown;
}): Message {
  const message: Message = { type: event.type.toLowerCase() };
  switch (event.type) {
    case "HUMAN":
    case "AI":
      // The seed knows only text: a multi-modal message reads as the text of its parts.
      message.content = event.content ?? (event.parts ? joinedText(event.parts as Part[]) : null);
      break;
    case "REASONING":
      message.content = event.content;
      message.model_name = event.modelName;
      break;
    case "TOOL_CALL":
      message.tool_name = event.toolName;
      message.args = event.args;
      break;
  }
  // "Fields that are null are excluded from JSON response."
  return Object.fromEntries(Object.entries(message).filter(([, value]) => value != null));
}

export function json(status: number, body: unknown) {
  return new globalThis.Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
