// The conversation formats dialogql reads and writes, by name.
import { fromUiMessages } from "./ai-sdk-ui-import.js";
import { toUiMessages } from "./ai-sdk-ui.js";
import { fromAnthropicConversation } from "./anthropic-messages-import.js";
import { toAnthropicConversation } from "./anthropic-messages.js";
import { fromChatMessages } from "./openai-chat-import.js";
import { type ChatMessage, toChatMessages } from "./openai-chat.js";
import { fromResponsesItems } from "./openai-responses-import.js";
import { type ResponsesItem, toResponsesItems } from "./openai-responses.js";
import { partsOf, type StoredEvent } from "./stored-event.js";
import { toPlainChatPart } from "../vocabulary/parts.js";
import { type MessageFormat, readProviderFields } from "../vocabulary/provider-fields.js";
import type { ImportedEvent } from "./turns.js";

export type { MessageFormat } from "../vocabulary/provider-fields.js";
export const messageFormats = [
  "OPENAI_CHAT",
  "OPENAI_RESPONSES",
  "ANTHROPIC_MESSAGES",
  "AI_SDK_UI",
] as const satisfies MessageFormat[];

export interface ExportOptions {
  /** Default: false for OPENAI_CHAT, true for the others (see each format). */
  includeReasoning?: boolean | null;
}

export function exportEvents(format: MessageFormat, events: readonly StoredEvent[], options: ExportOptions = {}) {
  const includeReasoning = options.includeReasoning ?? undefined;
  switch (format) {
    case "OPENAI_CHAT":
      return toChatMessages(events.map(forOpenAI), { includeReasoning }) satisfies ChatMessage[];
    case "OPENAI_RESPONSES":
      return toResponsesItems(events.map(forOpenAI), { includeReasoning }) satisfies ResponsesItem[];
    case "ANTHROPIC_MESSAGES":
      return toAnthropicConversation(events, { includeReasoning });
    case "AI_SDK_UI":
      return toUiMessages(events, { includeReasoning });
  }
}

/**
 * The OpenAI exports convert between their own two vocabularies themselves; an event from
 * Anthropic or the AI SDK reaches them as plain chat parts, its provider fields (which mean
 * nothing to OpenAI) left behind.
 */
function forOpenAI(event: StoredEvent): StoredEvent {
  const source = readProviderFields(event.providerFields)?.format;
  if (source !== "ANTHROPIC_MESSAGES" && source !== "AI_SDK_UI") return event;
  return { ...event, parts: partsOf(event)?.map(toPlainChatPart) ?? null, providerFields: null };
}

/** Validates `messages` and turns them into events; a ValidationError names every problem. */
export function importEvents(format: MessageFormat, messages: unknown, path = ["messages"]): ImportedEvent[] {
  switch (format) {
    case "OPENAI_CHAT":
      return fromChatMessages(messages, path);
    case "OPENAI_RESPONSES":
      return fromResponsesItems(messages, path);
    case "ANTHROPIC_MESSAGES":
      return fromAnthropicConversation(messages, path);
    case "AI_SDK_UI":
      return fromUiMessages(messages, path);
  }
}
