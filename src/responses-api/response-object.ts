// The Responses API's Response object, with every field the API defines (the nullable ones as
// null), built from a dialogql Response: its row and output events when stored, or the outcome of
// an unstored turn. The request parameters a Response echoes (instructions, tools, sampling…) are
// kept in the stored response's metadata under one reserved key, so any dialogql Response — one
// written through GraphQL included — reads as a Responses object.
import type { ResponseStatus } from "../generated/prisma/enums.js";
import type { OutputItem } from "../generation/output-items.js";
import { MCP_SERVERS_KEY } from "../mcp/mcp-request.js";
import type { UsageInput } from "../services/responses.js";
import type { EchoedParams } from "./create-request.js";

/** Where the echoed request parameters sit in a Response's metadata. */
export const ECHOED_PARAMS_KEY = "dialogql:responses_request";

export interface ResponseView {
  id: string;
  createdAt: Date;
  completedAt: Date | null;
  status: ResponseStatus;
  model: string | null;
  previousResponseId: string | null;
  /** The dialog (a Responses `conversation`); null for an unstored turn. */
  dialogId: string | null;
  output: OutputItem[];
  usage: UsageInput | null;
  /** As stored: {code, message} for FAILED, {code: reason} for INCOMPLETE. */
  error: unknown;
  /** The Response's metadata as stored (the echoed parameters under ECHOED_PARAMS_KEY). */
  metadata: unknown;
  store: boolean;
}

const statusNames: Record<ResponseStatus, string> = {
  IN_PROGRESS: "in_progress",
  COMPLETED: "completed",
  FAILED: "failed",
  INCOMPLETE: "incomplete",
  CANCELLED: "cancelled",
};

export const apiStatus = (status: ResponseStatus) => statusNames[status];

const defaultParams: EchoedParams = {
  instructions: null,
  tools: [],
  tool_choice: "auto",
  parallel_tool_calls: true,
  temperature: null,
  top_p: null,
  max_output_tokens: null,
  max_tool_calls: null,
  top_logprobs: 0,
  frequency_penalty: 0,
  presence_penalty: 0,
  service_tier: "default",
  prompt_cache_retention: null,
  reasoning: null,
  text: null,
  truncation: "disabled",
  user: null,
  safety_identifier: null,
  prompt_cache_key: null,
  background: false,
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function splitMetadata(metadata: unknown) {
  const all = (metadata && typeof metadata === "object" ? metadata : {}) as Record<string, unknown>;
  const { [ECHOED_PARAMS_KEY]: echoed, [MCP_SERVERS_KEY]: _servers, ...rest } = all;
  return { echoed: { ...defaultParams, ...(echoed as Partial<EchoedParams> | undefined) }, metadata: rest };
}

export function toResponseObject(view: ResponseView) {
  const { echoed, metadata } = splitMetadata(view.metadata);
  const status = apiStatus(view.status);
  const stored = (view.error ?? null) as { code?: string; message?: string } | null;
  const itemStatus =
    view.status === "IN_PROGRESS" ? "in_progress" : view.status === "COMPLETED" ? "completed" : "incomplete";
  return {
    id: view.id,
    object: "response",
    created_at: seconds(view.createdAt),
    completed_at: view.completedAt && view.status === "COMPLETED" ? seconds(view.completedAt) : null,
    status,
    background: echoed.background,
    error:
      view.status === "FAILED"
        ? { code: stored?.code ?? "server_error", message: stored?.message ?? "The response failed." }
        : null,
    incomplete_details: view.status === "INCOMPLETE" ? { reason: stored?.code ?? "interrupted" } : null,
    instructions: echoed.instructions,
    max_output_tokens: echoed.max_output_tokens,
    max_tool_calls: echoed.max_tool_calls,
    model: view.model ?? "",
    output: view.output.map((item) => toOutputItem(item, itemStatus, withSummary(echoed.reasoning))),
    parallel_tool_calls: echoed.parallel_tool_calls,
    previous_response_id: view.previousResponseId,
    // Every stored turn is kept in a dialog, which is its conversation (one id for both).
    conversation: view.dialogId ? { id: view.dialogId } : null,
    prompt: null,
    prompt_cache_key: echoed.prompt_cache_key,
    prompt_cache_retention: echoed.prompt_cache_retention,
    reasoning: echoed.reasoning ?? { effort: null, summary: null },
    safety_identifier: echoed.safety_identifier,
    service_tier: echoed.service_tier,
    store: view.store,
    temperature: echoed.temperature ?? 1,
    text: echoed.text ?? { format: { type: "text" }, verbosity: "medium" },
    tool_choice: echoed.tool_choice,
    tools: echoed.tools,
    top_logprobs: echoed.top_logprobs,
    top_p: echoed.top_p ?? 1,
    presence_penalty: echoed.presence_penalty,
    frequency_penalty: echoed.frequency_penalty,
    truncation: echoed.truncation,
    usage: view.usage && view.status !== "IN_PROGRESS" ? toUsage(view.usage) : null,
    user: echoed.user,
    metadata,
  };
}

export type ResponseObject = ReturnType<typeof toResponseObject>;

function toUsage(usage: UsageInput) {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? input + output,
  };
}

/** Whether reasoning is shown as a summary too (`reasoning.summary` asked for one). */
export const withSummary = (reasoning: unknown) => Boolean((reasoning as { summary?: unknown } | null)?.summary);

export function toOutputItem(item: OutputItem, status: string, summarised = false) {
  switch (item.type) {
    case "message":
      return {
        type: "message" as const,
        id: item.id,
        status,
        role: "assistant" as const,
        content: [{ type: "output_text" as const, text: item.text, annotations: [], logprobs: item.logprobs ?? [] }],
      };
    case "reasoning":
      return {
        type: "reasoning" as const,
        id: item.id,
        status,
        // The reasoning the upstream gave (a Responses upstream gives its summary) is the summary asked for.
        summary: summarised ? [{ type: "summary_text" as const, text: item.text }] : [],
        content: [{ type: "reasoning_text" as const, text: item.text }],
        encrypted_content: item.encryptedContent ?? null,
      };
    case "function_call":
      return {
        type: "function_call" as const,
        id: item.id,
        status,
        call_id: item.callId,
        name: item.name,
        arguments: item.arguments,
      };
    case "mcp_list_tools":
      return {
        type: "mcp_list_tools" as const,
        id: item.id,
        server_label: item.serverLabel,
        tools: item.tools,
        error: item.error,
      };
    case "mcp_call":
      return {
        type: "mcp_call" as const,
        id: item.id,
        status: status === "in_progress" ? item.status : item.status === "in_progress" ? status : item.status,
        server_label: item.serverLabel,
        name: item.name,
        arguments: item.arguments,
        output: item.output,
        error: item.error,
        approval_request_id: item.approvalRequestId,
      };
    case "mcp_approval_request":
      return {
        type: "mcp_approval_request" as const,
        id: item.id,
        server_label: item.serverLabel,
        name: item.name,
        arguments: item.arguments,
      };
  }
}
