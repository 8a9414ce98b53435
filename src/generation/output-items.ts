// What a model produces in a turn, as items (the Responses API's unit), and how each item is a
// history event: a message is an AiEvent, reasoning a ReasoningEvent, a function call a
// ToolCallEvent. MCP items are tool events too (src/mcp/mcp-events.ts says how). Item ids are
// derived from the response id and the item's place in the output, so the id a stream announces
// is the id a later GET returns, with nothing extra stored.
import type { StoredEvent } from "../formats/stored-event.js";
import { type McpItem, mcpItemsFromEvents, mcpPrefixes } from "../mcp/mcp-events.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import { type ProviderFields, readProviderFields } from "../vocabulary/provider-fields.js";
import type { TokenLogprob } from "./logprobs.js";

export type OutputItem =
  | { type: "message"; id: string; text: string; logprobs?: TokenLogprob[] }
  | ReasoningItem
  | { type: "function_call"; id: string; callId: string; name: string; arguments: string }
  | McpItem;

/**
 * Reasoning, with what the upstream gives to have it sent back on a later turn: an OpenAI
 * Responses upstream's encrypted content (`include: ["reasoning.encrypted_content"]`), an
 * Anthropic thinking block's signature.
 */
export interface ReasoningItem {
  type: "reasoning";
  id: string;
  text: string;
  encryptedContent?: string | null;
  signature?: string | null;
}

const prefixes = { message: "msg", reasoning: "rs", function_call: "fc", ...mcpPrefixes } as const;

export function outputItemId(type: OutputItem["type"], responseId: string, index: number) {
  return `${prefixes[type]}_${responseId.replace(/^resp_/, "")}_${index}`;
}

/** The events of a model-side item (MCP items are written by the MCP step, src/mcp/mcp-events.ts). */
export function toEventInput(
  item: Extract<OutputItem, { type: "message" | "reasoning" | "function_call" }>,
  model: string,
): HistoryEventInput {
  switch (item.type) {
    case "message":
      return { ai: { content: item.text } };
    case "reasoning":
      return { reasoning: { content: item.text, modelName: model, providerFields: reasoningFields(item) } };
    case "function_call":
      return { toolCall: { callId: item.callId, toolName: item.name, args: parseArguments(item.arguments) } };
  }
}

/**
 * What reasoning keeps to be sent back upstream, as an import of the same format keeps it
 * (src/formats): null when the upstream gave nothing to send back.
 */
export function reasoningFields(item: ReasoningItem): ProviderFields | null {
  if (item.encryptedContent) return { format: "OPENAI_RESPONSES", extra: { encrypted_content: item.encryptedContent } };
  if (item.signature) return { format: "ANTHROPIC_MESSAGES", block: { signature: item.signature } };
  return null;
}

/** The encrypted content or signature kept with a stored reasoning event. */
export function sentBackOf(providerFields: unknown): Pick<ReasoningItem, "encryptedContent" | "signature"> {
  const fields = readProviderFields(providerFields);
  const encrypted = fields?.extra?.encrypted_content;
  const signature = fields?.block?.signature;
  return {
    encryptedContent: typeof encrypted === "string" ? encrypted : null,
    signature: typeof signature === "string" ? signature : null,
  };
}

/** The text the model wrote in these items (answers and reasoning), for spans that capture content. */
export const writtenText = (items: readonly OutputItem[]) =>
  items.map((item) => (item.type === "message" || item.type === "reasoning" ? item.text : "")).join("");

/** Arguments are a JSON object as the model wrote them; anything else is kept under `raw`. */
export function parseArguments(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text || "{}");
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // kept raw below
  }
  return { raw: text };
}

/** Arguments as the model wrote them, from the stored object. */
export function argumentsText(args: unknown) {
  const object = args as Record<string, unknown> | null;
  return object && typeof object.raw === "string" && Object.keys(object).length === 1
    ? object.raw
    : JSON.stringify(object ?? {});
}

/** A stored event with its metadata (MCP items read theirs from it). */
export type OutputEvent = StoredEvent & { metadata?: unknown };

/** The id of the item an output event is, when it is the `index`th model item of its response; null for other events. */
export function outputItemIdOfEvent(event: StoredEvent & { responseId: string }, index: number) {
  const type = itemTypes[event.type];
  return type ? outputItemId(type, event.responseId, index) : null;
}

const itemTypes: Partial<Record<StoredEvent["type"], OutputItem["type"]>> = {
  AI: "message",
  REASONING: "reasoning",
  TOOL_CALL: "function_call",
};

/** A response's stored output events as items (events that are not model output are skipped). */
export function itemsFromEvents(responseId: string, events: readonly OutputEvent[]): OutputItem[] {
  const items: OutputItem[] = [];
  const mcp = mcpItemsFromEvents(events);
  for (const event of events) {
    const index = items.length;
    const fromMcp = mcp.get(event);
    if (fromMcp !== undefined) {
      if (fromMcp) items.push({ ...fromMcp, id: fromMcp.id || outputItemId(fromMcp.type, responseId, index) });
      continue;
    }
    if (event.type === "AI")
      items.push({ type: "message", id: outputItemId("message", responseId, index), text: event.content ?? "" });
    if (event.type === "REASONING") {
      const id = outputItemId("reasoning", responseId, index);
      items.push({ type: "reasoning", id, text: event.content ?? "", ...sentBackOf(event.providerFields) });
    }
    if (event.type === "TOOL_CALL") {
      items.push({
        type: "function_call",
        id: outputItemId("function_call", responseId, index),
        callId: event.callId ?? "",
        name: event.toolName ?? "",
        arguments: argumentsText(event.args),
      });
    }
  }
  return items;
}
