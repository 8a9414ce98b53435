// What a model produces in a turn, as items (the Responses API's unit), and how each item is a
// history event: a message is an AiEvent, reasoning a ReasoningEvent, a function call a
// ToolCallEvent. Item ids are derived from the response id and the item's place in the output,
// so the id a stream announces is the id a later GET returns, with nothing extra stored.
import type { StoredEvent } from "../formats/stored-event.js";
import type { HistoryEventInput } from "../vocabulary/events.js";

export type OutputItem =
  | { type: "message"; id: string; text: string }
  | { type: "reasoning"; id: string; text: string; encryptedContent?: string | null }
  | { type: "function_call"; id: string; callId: string; name: string; arguments: string };

const prefixes = { message: "msg", reasoning: "rs", function_call: "fc" } as const;

export function outputItemId(type: OutputItem["type"], responseId: string, index: number) {
  return `${prefixes[type]}_${responseId.replace(/^resp_/, "")}_${index}`;
}

export function toEventInput(item: OutputItem, model: string): HistoryEventInput {
  switch (item.type) {
    case "message":
      return { ai: { content: item.text } };
    case "reasoning":
      return { reasoning: { content: item.text, modelName: model } };
    case "function_call":
      return { toolCall: { callId: item.callId, toolName: item.name, args: parseArguments(item.arguments) } };
  }
}

/** Arguments are a JSON object as the model wrote them; anything else is kept under `raw`. */
function parseArguments(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text || "{}");
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // kept raw below
  }
  return { raw: text };
}

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
export function itemsFromEvents(responseId: string, events: readonly StoredEvent[]): OutputItem[] {
  const items: OutputItem[] = [];
  for (const event of events) {
    const index = items.length;
    if (event.type === "AI")
      items.push({ type: "message", id: outputItemId("message", responseId, index), text: event.content ?? "" });
    if (event.type === "REASONING") {
      items.push({ type: "reasoning", id: outputItemId("reasoning", responseId, index), text: event.content ?? "" });
    }
    if (event.type === "TOOL_CALL") {
      const args = event.args as Record<string, unknown> | null;
      items.push({
        type: "function_call",
        id: outputItemId("function_call", responseId, index),
        callId: event.callId ?? "",
        name: event.toolName ?? "",
        arguments:
          args && typeof args.raw === "string" && Object.keys(args).length === 1
            ? args.raw
            : JSON.stringify(args ?? {}),
      });
    }
  }
  return items;
}
