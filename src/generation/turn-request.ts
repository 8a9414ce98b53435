// What a generated turn is asked to do (the request, its tools), what follows it as it streams
// (the observer), and the running turn the tool loop works on.
import type { Context as TraceContext } from "@opentelemetry/api";
import type { JSONValue, ModelMessage } from "ai";
import type { StoredEvent } from "../formats/stored-event.js";
import type { TurnTrace } from "../tracing.js";
import type { McpSettings } from "../mcp/mcp-pool.js";
import type { McpRequest } from "../mcp/mcp-request.js";
import type { McpToolbox } from "../mcp/mcp-toolbox.js";
import type { FunctionTool, ResponseFormat, ToolChoice } from "./call-settings.js";
import type { TokenLogprob } from "./logprobs.js";
import type { PartReader } from "./model-step.js";
import type { OutputItem } from "./output-items.js";
import type { ModelCatalog } from "./providers.js";
import type { BegunTurn, TurnSink, TurnStart } from "./turn-sink.js";
import type { UpstreamParams, UpstreamSettings } from "./upstream-options.js";

export interface GenerateRequest extends TurnStart {
  instructions?: string | null;
  tools?: FunctionTool[] | null;
  toolChoice?: ToolChoice | null;
  temperature?: number | null;
  topP?: number | null;
  maxOutputTokens?: number | null;
  frequencyPenalty?: number | null;
  presencePenalty?: number | null;
  /** Structured output: a JSON schema the answer must follow, or any JSON object. */
  responseFormat?: ResponseFormat | null;
  /** `truncation: "auto"`: the oldest turns are dropped until the context fits the model's window. */
  truncate?: boolean;
  /** Parameters forwarded in the upstream's own terms (src/generation/upstream-options.ts). */
  upstream?: UpstreamParams;
  /** OpenAI's reasoning effort, for the recording doors (Chat Completions, Messages). */
  reasoningEffort?: string | null;
  /** The AI SDK's other call settings (stop sequences, seed, penalties, top-k), as given. */
  settings?: UpstreamSettings;
  /** Provider options by provider, merged into the call (for an OpenAI-compatible upstream, unknown keys go into the request body). */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** MCP servers dialogql calls itself within the turn, and answers to earlier approval requests. */
  mcp?: McpRequest | null;
  /** The trace context of the request that asked for the turn: the turn's span is a child of it. */
  traceContext?: TraceContext;
  /** At most this many MCP calls in the turn; then the model must answer (DEFAULT_MAX_TOOL_CALLS). */
  maxToolCalls?: number | null;
}

/** Follows one turn's items as they stream (the Responses API's SSE is built on this). */
export interface TurnObserver {
  onItemAdded?(item: OutputItem, outputIndex: number): void;
  /** `logprobs`: the tokens of a message's delta, when the request asked for them. */
  onDelta?(item: OutputItem, outputIndex: number, delta: string, logprobs?: TokenLogprob[]): void;
  /** An MCP call's arguments are complete; it runs next. */
  onArgumentsDone?(item: OutputItem, outputIndex: number): void;
  onItemDone?(item: OutputItem, outputIndex: number): void;
}

export interface Turn {
  request: GenerateRequest;
  begun: BegunTurn;
  sink: TurnSink;
  observer: TurnObserver;
  abort: AbortSignal;
  /**
   * Stops the turn as a cancel does, for a write that found its response ended by someone else
   * (a cancel that reached another instance while this one had no Redis to hear it).
   */
  endedElsewhere: () => void;
  model: ReturnType<ModelCatalog["resolve"]>;
  /** The upstream's options with the ones the request gives as they are (generate-turn.ts). */
  providerOptions: Record<string, Record<string, JSONValue>> | undefined;
  maxRetries: number;
  contextTokens: number;
  /** The turn's span, its model and tool calls under it (src/tracing.ts); null when tracing is off. */
  trace: TurnTrace | null;
  mcp: McpSettings;
  /** The turn's first model call, sent while its opening write committed (first-call.ts); null: made by its first step. */
  firstCall: FirstCall | null;
}

/** A turn's first model call, sent while its opening write commits (first-call.ts makes it). */
export interface FirstCall {
  /** The response the call's context continues: the begun turn's must be the same. */
  previousResponseId: string | null;
  /**
   * The context the call gives the model (as modelContext makes it), its messages, and the tools
   * of the turn's MCP servers, listed while the turn opened (null: none; their listings are the
   * turn's to write).
   */
  prepared: Promise<{ context: StoredEvent[]; messages: ModelMessage[]; toolbox: McpToolbox | null }>;
  /** When the call was sent (performance.now()). */
  sentAt: number;
  /** The call's parts, for the turn's first step: from then on the step reads or cancels them. */
  take(): Promise<PartReader>;
  /** Aborts the call, unless the first step took it. */
  discard(): void;
}
