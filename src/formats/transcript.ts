// A context as readable text, for logs and debugging: a header, then one
// numbered line per event with its role, long content shortened, for logs, prompts and debugging.
//
//   History (3 events):
//     1. [user] What is Python?
//     2. [assistant] Python is a programming language...
//     3. [tool call] search({"q":"python features"})
import { describePart } from "../vocabulary/parts.js";
import { readProviderFields } from "../vocabulary/provider-fields.js";
import { messageParts, type StoredEvent } from "./stored-event.js";

export const DEFAULT_TRANSCRIPT_CONTENT_LENGTH = 100;

export interface TranscriptOptions {
  /** Content longer than this many characters is cut there and ends with "...". */
  maxContentLength?: number;
}

export function renderTranscript(events: readonly StoredEvent[], options: TranscriptOptions = {}): string {
  const max = options.maxContentLength ?? DEFAULT_TRANSCRIPT_CONTENT_LENGTH;
  const count = `${events.length} ${events.length === 1 ? "event" : "events"}`;
  const lines = events.map((event, index) =>
    `  ${index + 1}. [${roleOf(event)}] ${shorten(textOf(event), max)}`.trimEnd(),
  );
  return [`History (${count})${events.length ? ":" : ""}`, ...lines].join("\n");
}

function roleOf(event: StoredEvent): string {
  switch (event.type) {
    case "HUMAN":
      return "user";
    case "AI":
      return "assistant";
    case "SYSTEM":
      return readProviderFields(event.providerFields)?.role ?? "system";
    case "REASONING":
      return "reasoning";
    case "TOOL_CALL":
      return "tool call";
    case "TOOL_RESULT":
      return event.isError ? "tool error" : "tool result";
  }
}

function textOf(event: StoredEvent): string {
  switch (event.type) {
    case "TOOL_CALL":
      return `${event.toolName}(${JSON.stringify(event.args ?? {})})`;
    case "TOOL_RESULT":
      return `${event.toolName ?? event.callId}: ${event.content ?? ""}`;
    case "REASONING":
      return event.content ?? "";
    default:
      return messageParts(event)?.map(describePart).join(" ") ?? event.content ?? "";
  }
}

/** One line: whitespace runs become single spaces; past `max` characters the text is cut. */
function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max).trimEnd()}...` : line;
}
