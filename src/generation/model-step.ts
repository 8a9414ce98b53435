// One call of the model within a turn (AI SDK streamText, no tool executed by the SDK): its
// stream is followed part by part into output items, as they are typed. A tool call becomes a
// function_call item (the client runs it), an mcp_call item (dialogql runs it after the step) or
// an mcp_approval_request item (the turn ends, waiting for the user), by what the tool is.
//
// The messages are made a provider prompt here, by the AI SDK's own conversion, and given to the
// model as they are (promptAsItIs): streamText would otherwise check the whole history against
// its message schema on every call, which cost more than anything else it does for a long chain
// (docs/performance.md). The messages are dialogql's own, built from stored events.
import {
  jsonSchema,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  streamText,
  type ToolSet,
  tool,
  wrapLanguageModel,
} from "ai";
import { convertToLanguageModelPrompt } from "ai/internal";
import type { McpToolbox } from "../mcp/mcp-toolbox.js";
import type { OutputItem } from "./output-items.js";
import { type FunctionTool, toolSet as functionTools } from "./call-settings.js";
import type { UpstreamSettings } from "./turn-request.js";
import { type LogprobsRequest, logprobsOfChunk, type TokenLogprob } from "./logprobs.js";

/** What a step writes into: the turn's items, the observer and the sink's typed text. */
export interface StepTarget {
  items: OutputItem[];
  add(item: OutputItem): void;
  newId(type: OutputItem["type"]): string;
  textDelta(type: "AI" | "REASONING", delta: string): void;
  /** `logprobs`: the tokens of a message's delta, when the turn asked for them. */
  delta(item: OutputItem, delta: string, logprobs?: TokenLogprob[]): void;
  argumentsDone(item: OutputItem): void;
  done(item: OutputItem): void;
  /** The step's end: its items so far are committed. */
  stepEnd(): Promise<void>;
  /** Commits the items so far now (reasoning with something to send back is written whole as it ends). */
  saveItems(): Promise<void>;
}

export interface StepRequest {
  model: LanguageModel;
  system: string | undefined;
  messages: ModelMessage[];
  tools: ToolSet | undefined;
  toolChoice: Parameters<typeof streamText>[0]["toolChoice"];
  temperature: number | undefined;
  topP: number | undefined;
  maxOutputTokens: number | undefined;
  frequencyPenalty: number | undefined;
  presencePenalty: number | undefined;
  /** The AI SDK's other call settings, as the request gives them. */
  settings: UpstreamSettings | undefined;
  /** Structured output (call-settings.ts `outputOf`). */
  output: Parameters<typeof streamText>[0]["output"];
  maxRetries: number;
  abort: AbortSignal;
  providerOptions: Parameters<typeof streamText>[0]["providerOptions"];
  toolbox: McpToolbox | null;
  /** Token logprobs of the answer, read from the upstream's raw chunks; null: not asked for. */
  logprobs: LogprobsRequest | null;
}

export interface StepResult {
  finishReason: string | undefined;
  /** The stop sequence the model stopped at, when its upstream says (Anthropic does). */
  stopSequence: string | null;
  usage: LanguageModelUsage | undefined;
  failure: unknown;
  /** The tool calls of the step, in order. */
  calls: Extract<OutputItem, { type: "function_call" | "mcp_call" | "mcp_approval_request" }>[];
}

export async function runModelStep(step: StepRequest, target: StepTarget): Promise<StepResult> {
  const bySdkId = new Map<string, OutputItem>();
  const result: StepResult = {
    finishReason: undefined,
    stopSequence: null,
    usage: undefined,
    failure: undefined,
    calls: [],
  };
  // The logprobs of the raw chunk the next text delta comes from.
  let chunkLogprobs: TokenLogprob[] | null = null;
  const add = (sdkId: string, item: OutputItem) => {
    bySdkId.set(sdkId, item);
    target.add(item);
  };
  const addCall = (callId: string, name: string, args: string) => {
    const item = callItem(step.toolbox, target, callId, name, args);
    add(callId, item);
    result.calls.push(item);
  };
  try {
    const stream = streamText({
      ...(await promptAsItIs(step)),
      // System and developer messages are the caller's own history (stored SystemEvents), not injected text.
      allowSystemInMessages: true,
      tools: step.tools,
      toolChoice: step.toolChoice,
      temperature: step.temperature,
      topP: step.topP,
      maxOutputTokens: step.maxOutputTokens,
      frequencyPenalty: step.frequencyPenalty,
      presencePenalty: step.presencePenalty,
      ...step.settings,
      output: step.output,
      maxRetries: step.maxRetries,
      abortSignal: step.abort,
      // Errors arrive as stream parts and end the turn FAILED; the SDK need not log them too.
      onError: () => {},
      providerOptions: step.providerOptions,
      includeRawChunks: step.logprobs != null,
    });
    for await (const part of stream.fullStream) {
      switch (part.type) {
        case "raw":
          chunkLogprobs = step.logprobs && logprobsOfChunk(part.rawValue, step.logprobs.top);
          break;
        case "text-start":
        case "reasoning-start": {
          const type = part.type === "text-start" ? "message" : "reasoning";
          add(part.id, { type, id: target.newId(type), text: "" });
          break;
        }
        case "text-delta":
        case "reasoning-delta": {
          const item = bySdkId.get(part.id);
          // Anthropic's thinking signature comes as a delta of no text at the block's end.
          const signature = part.providerMetadata?.anthropic?.signature;
          if (item?.type === "reasoning" && typeof signature === "string") item.signature = signature;
          if ((item?.type !== "message" && item?.type !== "reasoning") || !part.text) break;
          item.text += part.text;
          target.textDelta(item.type === "message" ? "AI" : "REASONING", part.text);
          const logprobs = item.type === "message" ? takeLogprobs(item, chunkLogprobs) : undefined;
          chunkLogprobs = null;
          target.delta(item, part.text, logprobs);
          break;
        }
        case "text-end":
        case "reasoning-end": {
          const item = bySdkId.get(part.id);
          // A Responses upstream asked for `reasoning.encrypted_content` gives it with the reasoning.
          const encrypted = part.providerMetadata?.openai?.reasoningEncryptedContent;
          if (item?.type === "reasoning" && typeof encrypted === "string") item.encryptedContent = encrypted;
          // Written whole now, before the answer's text opens, so it keeps what goes back upstream.
          if (item?.type === "reasoning" && (item.encryptedContent || item.signature)) await target.saveItems();
          if (item) target.done(item);
          break;
        }
        case "tool-input-start":
          addCall(part.id, part.toolName, "");
          break;
        case "tool-input-delta": {
          const item = bySdkId.get(part.id);
          if (!item || !("arguments" in item)) break;
          item.arguments += part.delta;
          target.delta(item, part.delta);
          break;
        }
        case "tool-call":
        case "tool-error": {
          // Providers that do not stream tool input send the whole call at once.
          if (!bySdkId.has(part.toolCallId)) addCall(part.toolCallId, part.toolName, JSON.stringify(part.input ?? {}));
          const item = bySdkId.get(part.toolCallId)!;
          // An MCP call is done once it has run; its arguments are done now.
          if (item.type === "mcp_call") target.argumentsDone(item);
          else target.done(item);
          break;
        }
        case "finish-step": {
          result.finishReason = part.finishReason;
          const stopSequence = part.providerMetadata?.anthropic?.stopSequence;
          result.stopSequence = typeof stopSequence === "string" ? stopSequence : null;
          await target.stepEnd();
          break;
        }
        case "finish":
          result.usage = part.totalUsage;
          break;
        case "error":
          result.failure = part.error;
          break;
      }
    }
  } catch (error) {
    result.failure = error;
  }
  return result;
}

type ModelV3 = Parameters<typeof wrapLanguageModel>[0]["model"];

/**
 * The model and prompt streamText is given: the model with the step's messages already converted
 * to its prompt, and an empty prompt in their place for streamText to check. A model of an older
 * specification gets the messages themselves.
 */
async function promptAsItIs(step: StepRequest) {
  const model = step.model;
  if (typeof model === "string" || model.specificationVersion !== "v3") {
    return { model, system: step.system, messages: step.messages };
  }
  const prompt = await convertToLanguageModelPrompt({
    prompt: { system: step.system, messages: step.messages },
    supportedUrls: await model.supportedUrls,
    download: undefined,
    abortSignal: step.abort,
  });
  const withPrompt = wrapLanguageModel({
    model: model as ModelV3,
    middleware: { specificationVersion: "v3", transformParams: async ({ params }) => ({ ...params, prompt }) },
  });
  return { model: withPrompt, prompt: "" };
}

/** A message delta's logprobs, kept on the message too (its output_text part lists them all). */
function takeLogprobs(item: Extract<OutputItem, { type: "message" }>, logprobs: TokenLogprob[] | null) {
  if (!logprobs) return undefined;
  item.logprobs = [...(item.logprobs ?? []), ...logprobs];
  return logprobs;
}

function callItem(toolbox: McpToolbox | null, target: StepTarget, callId: string, name: string, args: string) {
  const mcp = toolbox?.tools.get(name);
  if (!mcp) return { type: "function_call" as const, id: target.newId("function_call"), callId, name, arguments: args };
  const serverLabel = mcp.server.serverLabel;
  if (toolbox!.needsApproval(name)) {
    const id = target.newId("mcp_approval_request");
    return { type: "mcp_approval_request" as const, id, callId, serverLabel, name, arguments: args };
  }
  return {
    type: "mcp_call" as const,
    id: target.newId("mcp_call"),
    callId,
    serverLabel,
    name,
    arguments: args,
    output: null,
    error: null,
    approvalRequestId: null,
    status: "in_progress" as const,
  };
}

/**
 * Function tools and MCP tools, all without `execute`: a function call comes back to the client,
 * an MCP call is run by the tool loop once the model's step is over.
 */
export function toolSet(tools: FunctionTool[] | null | undefined, toolbox: McpToolbox | null): ToolSet | undefined {
  const offered: [string, ToolSet[string]][] = Object.entries(functionTools(tools) ?? {});
  for (const [name, { info }] of toolbox?.tools ?? []) {
    offered.push([
      name,
      tool({ description: info.description ?? undefined, inputSchema: schemaOf(info.input_schema) }),
    ]);
  }
  return offered.length ? Object.fromEntries(offered) : undefined;
}

const schemaOf = (parameters: Record<string, unknown> | null | undefined) =>
  jsonSchema((parameters ?? { type: "object", properties: {} }) as Parameters<typeof jsonSchema>[0]);
