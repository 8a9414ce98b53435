// The conversation formats dialogql reads and writes, by name.
import { fromChatMessages } from "./openai-chat-import.js";
import { type ChatMessage, toChatMessages } from "./openai-chat.js";
import { fromResponsesItems } from "./openai-responses-import.js";
import { type ResponsesItem, toResponsesItems } from "./openai-responses.js";
import type { MessageFormat } from "./provider-fields.js";
import type { StoredEvent } from "./stored-event.js";
import type { ImportedEvent } from "./turns.js";

export type { MessageFormat } from "./provider-fields.js";
export const messageFormats = ["OPENAI_CHAT", "OPENAI_RESPONSES"] as const satisfies MessageFormat[];

export interface ExportOptions {
  /** Default: false for OPENAI_CHAT, true for OPENAI_RESPONSES (see each format). */
  includeReasoning?: boolean | null;
}

export function exportEvents(format: MessageFormat, events: readonly StoredEvent[], options: ExportOptions = {}) {
  const includeReasoning = options.includeReasoning ?? undefined;
  return format === "OPENAI_CHAT"
    ? (toChatMessages(events, { includeReasoning }) satisfies ChatMessage[])
    : (toResponsesItems(events, { includeReasoning }) satisfies ResponsesItem[]);
}

/** Validates `messages` and turns them into events; a ValidationError names every problem. */
export function importEvents(format: MessageFormat, messages: unknown, path = ["messages"]): ImportedEvent[] {
  return format === "OPENAI_CHAT" ? fromChatMessages(messages, path) : fromResponsesItems(messages, path);
}
