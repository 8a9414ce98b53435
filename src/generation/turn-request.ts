// What a generated turn is asked to do (the request, its tools), what follows it as it streams
// (the observer), and the running turn the tool loop works on.
import type { McpSettings } from "../mcp/mcp-connection.js";
import type { McpRequest } from "../mcp/mcp-request.js";
import type { OutputItem } from "./output-items.js";
import type { ModelCatalog } from "./providers.js";
import type { BegunTurn, TurnSink, TurnStart } from "./turn-sink.js";

export interface FunctionTool {
  name: string;
  description?: string | null;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

export interface GenerateRequest extends TurnStart {
  instructions?: string | null;
  tools?: FunctionTool[] | null;
  toolChoice?: ToolChoice | null;
  temperature?: number | null;
  topP?: number | null;
  maxOutputTokens?: number | null;
  reasoningEffort?: string | null;
  /** MCP servers dialogql calls itself within the turn, and answers to earlier approval requests. */
  mcp?: McpRequest | null;
  /** At most this many MCP calls in the turn; then the model must answer (DEFAULT_MAX_TOOL_CALLS). */
  maxToolCalls?: number | null;
}

/** Follows one turn's items as they stream (the Responses API's SSE is built on this). */
export interface TurnObserver {
  onItemAdded?(item: OutputItem, outputIndex: number): void;
  onDelta?(item: OutputItem, outputIndex: number, delta: string): void;
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
  model: ReturnType<ModelCatalog["resolve"]>;
  maxRetries: number;
  mcp: McpSettings;
}
