// One call of the model within a turn (no tool is executed by the AI SDK): the provider's stream
// (provider-stream.ts) is followed part by part into output items, as they are typed. A tool call
// becomes a function_call item (the client runs it), an mcp_call item (dialogql runs it after the
// step) or an mcp_approval_request item (the turn ends, waiting for the user), by what the tool is.
// What streamText made of the provider's parts that the turn relies on is made here: the finish
// reason and usage, a stream that ends with nothing, a tool call under tool choice "none".
import {
  jsonSchema,
  type LanguageModelUsage,
  NoOutputGeneratedError,
  ToolChoiceViolationError,
  type ToolSet,
  tool,
} from "ai";
import { asLanguageModelUsage } from "ai/internal";
import type { McpToolbox } from "../mcp/mcp-toolbox.js";
import type { OutputItem } from "./output-items.js";
import { type FunctionTool, toolSet as functionTools } from "./call-settings.js";
import { callProvider, type ProviderCall, type ProviderPart, wholeCallArguments } from "./provider-stream.js";
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
  /**
   * The step's end: its items so far are committed (a step of typed text only, the turn's answer,
   * may be left for the turn's end to commit with its status: turn-writer.ts).
   */
  stepEnd(): Promise<void>;
  /** Commits the items so far now (reasoning with something to send back is written whole as it ends). */
  saveItems(): Promise<void>;
}

export interface StepRequest extends Omit<ProviderCall, "rawChunks"> {
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

/** Makes the step's call: the provider's stream of parts, or the call's error. */
export const openStep = (step: StepRequest) => callProvider({ ...step, rawChunks: step.logprobs != null });

/** How a step reads its call's parts. */
export type PartReader = Pick<ReadableStreamDefaultReader<ProviderPart>, "read" | "cancel">;

/** `opened`: the step's call made already, with this request (a turn's first call: first-call.ts). */
export async function runModelStep(
  step: StepRequest,
  target: StepTarget,
  opened?: Promise<PartReader>,
): Promise<StepResult> {
  const follower = new StepFollower(step, target);
  try {
    const reader = opened ? await opened : (await openStep(step)).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      // A cancelled step ends where it is, with no failure and no step end (the turn's end saves it).
      if (step.abort.aborted) {
        void reader.cancel().catch(() => {});
        return follower.result;
      }
      // Only a few parts wait (a reasoning written whole): the rest go on at once.
      const waiting = follower.take(read.value);
      if (waiting) await waiting;
    }
    if (!step.abort.aborted) await follower.end();
  } catch (error) {
    if (!step.abort.aborted) follower.result.failure = error;
  }
  return follower.result;
}

type PartOf<T extends ProviderPart["type"]> = Extract<ProviderPart, { type: T }>;

/** A step's stream parts, followed into output items (by the provider's ids) and the step's result. */
class StepFollower {
  readonly result: StepResult = {
    finishReason: undefined,
    stopSequence: null,
    usage: undefined,
    failure: undefined,
    calls: [],
  };
  private readonly byPartId = new Map<string, OutputItem>();
  /** The logprobs of the raw chunk the next text delta comes from. */
  private chunkLogprobs: TokenLogprob[] | null = null;
  private finish: PartOf<"finish"> | undefined;
  /** Whether an error part or any output came: a stream with neither ended with nothing. */
  private errored = false;
  private output = false;
  /** Tool choice "none": tool parts are held back, and a tool call is the model's violation of it. */
  private readonly toolsWithheld: boolean;
  private withheldCall = false;

  constructor(
    private readonly step: StepRequest,
    private readonly target: StepTarget,
  ) {
    this.toolsWithheld = step.toolChoice === "none";
  }

  /** Follows one part; a promise when the stream must wait for it. */
  take(part: ProviderPart): Promise<void> | void {
    this.output ||= !NOT_OUTPUT.has(part.type);
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
        return this.toolsWithheld ? undefined : this.addCall(part.id, part.toolName, "");
      case "tool-input-delta":
        return this.toolsWithheld ? undefined : this.argumentsDelta(part);
      case "tool-call":
        return this.toolCall(part);
      case "finish":
        this.finish = part;
        return;
      case "error":
        this.errored = true;
        this.result.failure = part.error;
        return;
    }
  }

  /** The stream's end: the step's finish reason and usage, and its items committed. */
  async end() {
    const finish = this.finish;
    if (!finish && !this.errored && !this.output) {
      this.result.failure = new NoOutputGeneratedError({
        message: "No output generated. The model stream ended without a finish chunk.",
      });
      return;
    }
    const violated = this.withheldCall && finish ? this.violation(finish) : undefined;
    if (violated) this.result.failure = violated;
    this.result.finishReason = violated
      ? "error"
      : (finish?.finishReason.unified ?? (this.errored ? "error" : "other"));
    const stopSequence = finish?.providerMetadata?.anthropic?.stopSequence;
    this.result.stopSequence = typeof stopSequence === "string" ? stopSequence : null;
    await this.target.stepEnd();
    if (!this.step.abort.aborted) this.result.usage = asLanguageModelUsage(finish?.usage ?? NO_USAGE);
  }

  private add(partId: string, item: OutputItem) {
    this.byPartId.set(partId, item);
    this.target.add(item);
  }

  private addCall(callId: string, name: string, args: string) {
    const item = callItem(this.step.toolbox, this.target, callId, name, args);
    this.add(callId, item);
    this.result.calls.push(item);
  }

  private textDelta(part: PartOf<"text-delta" | "reasoning-delta">) {
    const item = this.byPartId.get(part.id);
    // Anthropic's thinking signature comes as a delta of no text at the block's end.
    const signature = part.providerMetadata?.anthropic?.signature;
    if (item?.type === "reasoning" && typeof signature === "string") item.signature = signature;
    if ((item?.type !== "message" && item?.type !== "reasoning") || !part.delta) return;
    item.text += part.delta;
    this.target.textDelta(item.type === "message" ? "AI" : "REASONING", part.delta);
    const logprobs = item.type === "message" ? takeLogprobs(item, this.chunkLogprobs) : undefined;
    this.chunkLogprobs = null;
    this.target.delta(item, part.delta, logprobs);
  }

  private textEnd(part: PartOf<"text-end" | "reasoning-end">): Promise<void> | void {
    const item = this.byPartId.get(part.id);
    // A Responses upstream asked for `reasoning.encrypted_content` gives it with the reasoning.
    const encrypted = part.providerMetadata?.openai?.reasoningEncryptedContent;
    if (item?.type === "reasoning" && typeof encrypted === "string") item.encryptedContent = encrypted;
    // Written whole now, before the answer's text opens, so it keeps what goes back upstream.
    if (item?.type === "reasoning" && (item.encryptedContent || item.signature)) {
      return this.target.saveItems().then(() => this.target.done(item));
    }
    if (item) this.target.done(item);
  }

  private argumentsDelta(part: PartOf<"tool-input-delta">) {
    const item = this.byPartId.get(part.id);
    if (!item || !("arguments" in item)) return;
    item.arguments += part.delta;
    this.target.delta(item, part.delta);
  }

  /**
   * A call is taken whatever its input or name (a tool the request does not offer, input that is
   * not JSON): streamText only marked such a call invalid, and the client or the tool loop answers it.
   */
  private toolCall(part: PartOf<"tool-call">) {
    if (this.toolsWithheld) {
      this.withheldCall = true;
      return;
    }
    // Providers that do not stream tool input send the whole call at once.
    if (!this.byPartId.has(part.toolCallId)) {
      this.addCall(part.toolCallId, part.toolName, wholeCallArguments(part.input));
    }
    const item = this.byPartId.get(part.toolCallId)!;
    // An MCP call is done once it has run; its arguments are done now.
    if (item.type === "mcp_call") this.target.argumentsDone(item);
    else this.target.done(item);
  }

  private violation(finish: PartOf<"finish">) {
    const { provider, modelId } = this.step.model;
    const finishReason = finish.finishReason.unified;
    return new ToolChoiceViolationError({ toolChoice: { type: "none" }, finishReason, provider, modelId, content: [] });
  }
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

/** The parts that are not the model's output (streamText's `isOutputChunkType`). */
const NOT_OUTPUT = new Set<ProviderPart["type"]>(["stream-start", "response-metadata", "finish", "error", "raw"]);

/** A stream with no finish part: usage unknown, as streamText gave it. */
const NO_USAGE: PartOf<"finish">["usage"] = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

const schemaOf = (parameters: Record<string, unknown> | null | undefined) =>
  jsonSchema((parameters ?? { type: "object", properties: {} }) as Parameters<typeof jsonSchema>[0]);
