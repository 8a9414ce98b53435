// Stored items as the API lists them (input_items, conversation items): each with its id, a
// message's content always a list of parts (`input_text` for what was given to the model,
// `output_text` for an assistant's answer), as OpenAI lists them.
import type { Event } from "../generated/prisma/client.js";
import { mcpMetadataOf } from "../mcp/mcp-events.js";
import { ApiError } from "./api-errors.js";
import { inputItemOf } from "./item-references.js";

type Item = Record<string, unknown>;

export function listedItem(id: string, event: Event): Item {
  const approval = approvalResponseItem(event);
  if (approval) return { id, ...approval };
  const item: Item = { ...inputItemOf(event), id };
  if (item.type === "function_call" || item.type === "function_call_output") return { status: "completed", ...item };
  if (item.type !== undefined && item.type !== "message") return item;
  const assistant = item.role === "assistant";
  const content = typeof item.content === "string" ? [textPart(item.content, assistant)] : item.content;
  return { type: "message", status: "completed", ...item, content };
}

const textPart = (text: string, assistant: boolean) =>
  assistant ? { type: "output_text", text, annotations: [], logprobs: [] } : { type: "input_text", text };

/** An `mcp_approval_response` input item, as it was given (src/mcp/mcp-events.ts stores it). */
function approvalResponseItem(event: {
  callId: string | null;
  isError: boolean | null;
  content: string | null;
  metadata: unknown;
}) {
  if (mcpMetadataOf(event.metadata)?.type !== "mcp_approval_response") return null;
  const approve = !event.isError;
  const reason = event.content === (approve ? "approved" : "denied") ? null : event.content;
  return { type: "mcp_approval_response" as const, approval_request_id: event.callId, approve, reason };
}

/** The page of items a list request asks for (`limit`, `order`, `after`); a 400 naming a bad one. */
export function inputItemsPage(url: URL) {
  const limit = Number(url.searchParams.get("limit") ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ApiError(400, "Invalid 'limit': must be an integer from 1 to 100.", "invalid_request_error", "limit");
  }
  const order = url.searchParams.get("order") ?? "desc";
  if (order !== "asc" && order !== "desc") {
    throw new ApiError(400, "Invalid 'order': must be asc or desc.", "invalid_request_error", "order");
  }
  return { limit, order, after: url.searchParams.get("after") } as const;
}
