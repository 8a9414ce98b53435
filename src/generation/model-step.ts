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
  type TextStreamPart,
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
  const follower = new StepFollower(step, target);
  try {
    const stream = await startStream(step);
    for await (const part of stream.fullStream) {
      // Only a few parts wait (a reasoning written whole, a step's end): the rest go on at once.
      const waiting = follower.take(part);
      if (waiting) await waiting;
    }
  } catch (error) {
    follower.result.failure = error;
  }
  return follower.result;
}

async function startStream(step: StepRequest) {
  return streamText({
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
}

type StreamPart = TextStreamPart<ToolSet>;
type PartOf<T extends StreamPart["type"]> = Extract<StreamPart, { type: T }>;

/** A step's stream parts, followed into output items (by the SDK's ids) and the step's result. */
class StepFollower {
  readonly result: StepResult = {
    finishReason: undefined,
    stopSequence: null,
    usage: undefined,
    failure: undefined,
    calls: [],
  };
  private readonly bySdkId = new Map<string, OutputItem>();
  /** The logprobs of the raw chunk the next text delta comes from. */
  private chunkLogprobs: TokenLogprob[] | null = null;

  constructor(
    private readonly step: StepRequest,
    private readonly target: StepTarget,
  ) {}

  /** Follows one part; a promise when the stream must wait for it. */
  take(part: StreamPart): Promise<void> | void {
    switch (part.type) {
      case "raw":
        this.chunkLogprobs = this.step.logprobs && logprobsOfChunk(part.rawValue, this.step.logprobs.top);
        return;
      case "text-start":
      case "reasoning-start": {
        const type = part.type === "text-start" ? "message" : "reasoning";
        return this.add(part.id, { type, id: this.target.newId(type), text: "" });
      }
      case "text-delta":
      case "reasoning-delta":
        return this.textDelta(part);
      case "text-end":
      case "reasoning-end":
        return this.textEnd(part);
      case "tool-input-start":
        return this.addCall(part.id, part.toolName, "");
      case "tool-input-delta": {
        const item = this.bySdkId.get(part.id);
        if (!item || !("arguments" in item)) return;
        item.arguments += part.delta;
        return this.target.delta(item, part.delta);
      }
      case "tool-call":
      case "tool-error":
        return this.toolCall(part);
      case "finish-step": {
        this.result.finishReason = part.finishReason;
        const stopSequence = part.providerMetadata?.anthropic?.stopSequence;
        this.result.stopSequence = typeof stopSequence === "string" ? stopSequence : null;
        return this.target.stepEnd();
      }
      case "finish":
        this.result.usage = part.totalUsage;
        return;
      case "error":
        this.result.failure = part.error;
        return;
    }
  }

  private add(sdkId: string, item: OutputItem) {
    this.bySdkId.set(sdkId, item);
    this.target.add(item);
  }

  private addCall(callId: string, name: string, args: string) {
    const item = callItem(this.step.toolbox, this.target, callId, name, args);
    this.add(callId, item);
    this.result.calls.push(item);
  }

  private textDelta(part: PartOf<"text-delta" | "reasoning-delta">) {
    const item = this.bySdkId.get(part.id);
    // Anthropic's thinking signature comes as a delta of no text at the block's end.
    const signature = part.providerMetadata?.anthropic?.signature;
    if (item?.type === "reasoning" && typeof signature === "string") item.signature = signature;
    if ((item?.type !== "message" && item?.type !== "reasoning") || !part.text) return;
    item.text += part.text;
    this.target.textDelta(item.type === "message" ? "AI" : "REASONING", part.text);
    const logprobs = item.type === "message" ? takeLogprobs(item, this.chunkLogprobs) : undefined;
    this.chunkLogprobs = null;
    this.target.delta(item, part.text, logprobs);
  }

  private textEnd(part: PartOf<"text-end" | "reasoning-end">): Promise<void> | void {
    const item = this.bySdkId.get(part.id);
    // A Responses upstream asked for `reasoning.encrypted_content` gives it with the reasoning.
    const encrypted = part.providerMetadata?.openai?.reasoningEncryptedContent;
    if (item?.type === "reasoning" && typeof encrypted === "string") item.encryptedContent = encrypted;
    // Written whole now, before the answer's text opens, so it keeps what goes back upstream.
    if (item?.type === "reasoning" && (item.encryptedContent || item.signature)) {
      return this.target.saveItems().then(() => this.target.done(item));
    }
    if (item) this.target.done(item);
  }

  private toolCall(part: PartOf<"tool-call" | "tool-error">) {
    // Providers that do not stream tool input send the whole call at once.
    if (!this.bySdkId.has(part.toolCallId)) {
      this.addCall(part.toolCallId, part.toolName, JSON.stringify(part.input ?? {}));
    }
    const item = this.bySdkId.get(part.toolCallId)!;
    // An MCP call is done once it has run; its arguments are done now.
    if (item.type === "mcp_call") this.target.argumentsDone(item);
    else this.target.done(item);
  }
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
