// What one model call of a turn is made of: the turn's request and model, the context it is
// given and the tools of the moment. Made from these parts only, not from the begun turn, because
// the first call may be made before the turn's opening write has committed (first-call.ts).
import type { ModelMessage } from "ai";
import type { StoredEvent } from "../formats/stored-event.js";
import { fitToBudget, loadTokenizer } from "../formats/token-budget.js";
import { type McpToolbox, openToolbox } from "../mcp/mcp-toolbox.js";
import { outputOf, toolChoice } from "./call-settings.js";
import { type StepRequest, toolSet } from "./model-step.js";
import type { Turn } from "./turn-request.js";

/** How many MCP calls a turn makes when the request sets no max_tool_calls. */
export const DEFAULT_MAX_TOOL_CALLS = 20;

/** The parts of a turn its model calls are made from. */
export type CallBasis = Pick<
  Turn,
  "request" | "model" | "maxRetries" | "abort" | "providerOptions" | "contextTokens" | "mcp"
>;

/**
 * The tools of the turn's MCP servers for a turn continuing `context` (listed now, or reused from
 * a listing in it); null for a turn with none. Nothing is written: the turn writes the fresh listings.
 */
export async function openTurnToolbox({ request, mcp }: CallBasis, context: StoredEvent[], abort: AbortSignal) {
  const servers = request.mcp?.servers ?? [];
  if (!servers.length && !request.mcp?.approvals.length) return null;
  // A tool named like one of the request's function tools is not offered.
  const functionNames = new Set((request.tools ?? []).map((spec) => spec.name));
  return openToolbox(servers, mcp, request.tenantId, context, functionNames, abort);
}

/** The context the model is given: all of it, or with `truncate` what fits its window (tool pairs kept). */
export async function modelContext({ request, contextTokens }: CallBasis, context: StoredEvent[]) {
  if (!request.truncate) return context;
  const count = await loadTokenizer("O200K_BASE");
  const budget = contextTokens - (request.maxOutputTokens ?? 0) - count(request.instructions ?? "");
  return fitToBudget(context, Math.max(budget, 0), count).events;
}

/** One model call of the turn, `calls` MCP calls into it: past max_tool_calls the model is offered none. */
export function stepRequest(
  { request, model, maxRetries, abort, providerOptions }: CallBasis,
  messages: ModelMessage[],
  toolbox: McpToolbox | null,
  calls: number,
): StepRequest {
  const maxCalls = request.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS;
  return {
    model,
    system: request.instructions ?? undefined,
    messages,
    tools: toolSet(request.tools, toolbox),
    // Past max_tool_calls the model is offered no more calls: it answers with what it has.
    toolChoice: calls >= maxCalls ? "none" : toolChoice(request.toolChoice),
    temperature: request.temperature ?? undefined,
    topP: request.topP ?? undefined,
    maxOutputTokens: request.maxOutputTokens ?? undefined,
    frequencyPenalty: request.frequencyPenalty ?? undefined,
    presencePenalty: request.presencePenalty ?? undefined,
    settings: request.settings,
    output: outputOf(request.responseFormat),
    maxRetries,
    abort,
    providerOptions,
    toolbox,
    logprobs: request.upstream?.logprobs ?? null,
  };
}
