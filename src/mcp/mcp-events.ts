// How MCP steps are kept as history events, within the existing kinds. Every MCP event carries
// `metadata.mcp = {type, server_label, …}`:
// - listing a server's tools (`mcp_list_tools`): a ToolCallEvent and a ToolResultEvent named
//   `mcp_list_tools`, call id `mcpl_…`, the result's content the tools as JSON;
// - calling a tool (`mcp_call`): the model's ToolCallEvent (its own call id, the tool's name and
//   arguments) and the ToolResultEvent with the tool's output (isError when it failed);
// - asking for approval (`mcp_approval_request`): a ToolCallEvent with call id `mcpr_…` (the
//   request's id) and `metadata.mcp.call_id`, the model's own call id;
// - the answer (`mcp_approval_response`, in the next turn's input): a ToolResultEvent for that
//   `mcpr_…` call, isError when it was denied, its content the reason.
// `mcpl_` and `mcpr_` events are bookkeeping, not model output: the model is never given them
// (src/generation/model-messages.ts). It sees an approved call as a call and its result, and a
// denied one as a call whose result is an error saying so (an `mcp_call` with `denied: true`,
// which the Response's output leaves out, as OpenAI's does).
import type { StoredEvent } from "../formats/stored-event.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import type { McpCallError, McpToolInfo } from "./mcp-connection.js";
import type { ApprovalAnswer } from "./mcp-request.js";

export type McpItem =
  | { type: "mcp_list_tools"; id: string; serverLabel: string; tools: McpToolInfo[]; error: string | null }
  | {
      type: "mcp_call";
      id: string;
      callId: string;
      serverLabel: string;
      name: string;
      arguments: string;
      output: string | null;
      error: McpCallError | null;
      approvalRequestId: string | null;
      status: "in_progress" | "calling" | "completed" | "failed" | "incomplete";
    }
  | { type: "mcp_approval_request"; id: string; callId: string; serverLabel: string; name: string; arguments: string };

export const mcpPrefixes = { mcp_list_tools: "mcpl", mcp_call: "mcp", mcp_approval_request: "mcpr" } as const;

export const LIST_TOOLS = "mcp_list_tools";
export const DENIED_TEXT = "The user denied this tool call.";

/** Events the model is never given: tool listings and approval requests and answers. */
export const isMcpBookkeeping = (callId: string | null) =>
  callId !== null && (callId.startsWith("mcpl_") || callId.startsWith("mcpr_"));

export interface McpMetadata {
  type: "mcp_list_tools" | "mcp_call" | "mcp_approval_request" | "mcp_approval_response";
  server_label?: string;
  /** An approval request: the model's call id. */
  call_id?: string;
  /** A call that was approved or denied: the request it answered. */
  approval_request_id?: string | null;
  denied?: boolean;
  error?: unknown;
  approve?: boolean;
}

export const mcpMetadataOf = (metadata: unknown): McpMetadata | null => {
  const mcp = (metadata as { mcp?: unknown } | null)?.mcp;
  return mcp && typeof mcp === "object" && typeof (mcp as McpMetadata).type === "string" ? (mcp as McpMetadata) : null;
};

const meta = (mcp: McpMetadata) => ({ mcp });

export function listToolsEvents(item: Extract<McpItem, { type: "mcp_list_tools" }>): HistoryEventInput[] {
  const mcp = meta({ type: "mcp_list_tools", server_label: item.serverLabel, error: item.error ?? undefined });
  return [
    { toolCall: { callId: item.id, toolName: LIST_TOOLS, args: { server_label: item.serverLabel }, metadata: mcp } },
    {
      toolResult: {
        callId: item.id,
        toolName: LIST_TOOLS,
        content: item.error ?? JSON.stringify(item.tools),
        isError: item.error !== null,
        metadata: mcp,
      },
    },
  ];
}

type CallItem = Extract<McpItem, { type: "mcp_call" }>;

export function callEvent(item: CallItem, args: Record<string, unknown>, denied = false): HistoryEventInput {
  const mcp = meta({
    type: "mcp_call",
    server_label: item.serverLabel,
    approval_request_id: item.approvalRequestId,
    ...(denied && { denied }),
  });
  return { toolCall: { callId: item.callId, toolName: item.name, args, metadata: mcp } };
}

export function resultEvent(item: CallItem, text: string, denied = false): HistoryEventInput {
  const mcp = meta({
    type: "mcp_call",
    server_label: item.serverLabel,
    error: item.error ?? undefined,
    ...(denied && { denied }),
  });
  return {
    toolResult: {
      callId: item.callId,
      toolName: item.name,
      content: text,
      isError: item.error !== null,
      metadata: mcp,
    },
  };
}

export function approvalRequestEvent(
  item: Extract<McpItem, { type: "mcp_approval_request" }>,
  args: Record<string, unknown>,
): HistoryEventInput {
  const mcp = meta({ type: "mcp_approval_request", server_label: item.serverLabel, call_id: item.callId });
  return { toolCall: { callId: item.id, toolName: item.name, args, metadata: mcp } };
}

/** An answer as the next turn's input event (its call is the request, which must be in the context). */
export function approvalResponseEvent(answer: ApprovalAnswer, toolName: string | null): HistoryEventInput {
  const mcp = meta({ type: "mcp_approval_response", approve: answer.approve });
  return {
    toolResult: {
      callId: answer.approvalRequestId,
      toolName,
      content: answer.reason ?? (answer.approve ? "approved" : "denied"),
      isError: !answer.approve,
      metadata: mcp,
    },
  };
}

type EventWithMetadata = StoredEvent & { metadata?: unknown };

/**
 * The MCP items of a response's stored output: for each MCP event, its item, or null when the
 * event is part of another item (a call's result) or of none. Events that are not MCP's are absent.
 */
export function mcpItemsFromEvents(events: readonly EventWithMetadata[]) {
  const items = new Map<EventWithMetadata, McpItem | null>();
  const results = new Map(
    events.filter((event) => event.type === "TOOL_RESULT" && event.callId).map((event) => [event.callId!, event]),
  );
  for (const event of events) {
    const mcp = mcpMetadataOf(event.metadata);
    if (!mcp) continue;
    items.set(event, itemOf(event, mcp, results));
  }
  return items;
}

function itemOf(event: EventWithMetadata, mcp: McpMetadata, results: Map<string, EventWithMetadata>): McpItem | null {
  const serverLabel = mcp.server_label ?? "";
  if (mcp.type === "mcp_list_tools" && event.type === "TOOL_RESULT") {
    return {
      type: "mcp_list_tools",
      id: event.callId ?? "",
      serverLabel,
      tools: event.isError ? [] : parseTools(event.content),
      error: event.isError ? (event.content ?? "") : null,
    };
  }
  if (mcp.type === "mcp_approval_request" && event.type === "TOOL_CALL") {
    return {
      type: "mcp_approval_request",
      id: event.callId ?? "",
      callId: mcp.call_id ?? "",
      serverLabel,
      name: event.toolName ?? "",
      arguments: JSON.stringify(event.args ?? {}),
    };
  }
  if (mcp.type === "mcp_call" && event.type === "TOOL_CALL" && !mcp.denied) {
    const result = event.callId ? results.get(event.callId) : undefined;
    const error = result ? (mcpMetadataOf(result.metadata)?.error as McpCallError | undefined) : undefined;
    return {
      type: "mcp_call",
      id: "",
      callId: event.callId ?? "",
      serverLabel,
      name: event.toolName ?? "",
      arguments: JSON.stringify(event.args ?? {}),
      output: result && !result.isError ? (result.content ?? "") : null,
      error: error ?? (result?.isError ? { type: "mcp_tool_execution_error", content: result.content } : null),
      approvalRequestId: mcp.approval_request_id ?? null,
      status: !result ? "incomplete" : result.isError ? "failed" : "completed",
    };
  }
  return null;
}

function parseTools(content: string | null): McpToolInfo[] {
  try {
    const value = JSON.parse(content ?? "[]");
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}
