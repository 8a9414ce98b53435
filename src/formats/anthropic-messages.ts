// A context as an Anthropic Messages request body: `{ system?, messages }`, ready to spread into
// `anthropic.messages.create({ model, max_tokens, ...exported })`. The system prompt lives outside
// the message list in Anthropic's API, so the export is an object rather than a bare list:
// system prompts imported from the top-level `system` (and, for other events, the system prompts
// before anything else) go there; a system prompt later in the conversation is a `system` message.
// Blocks imported in this format come back exactly (thinking signatures, citations, cache_control);
// other events get the nearest block. test/provider-sdk-types.test-d.ts checks these types against
// `@anthropic-ai/sdk`.
import { type Part, parseDataUrl, toChatPart, toChatTextPart } from "../vocabulary/parts.js";
import { readProviderFields } from "../vocabulary/provider-fields.js";
import { messageParts, partsOf, type StoredEvent } from "./stored-event.js";

type CacheControl = { type: "ephemeral"; ttl?: "5m" | "1h" } | null;
export interface AnthropicTextBlock {
  type: "text";
  text: string;
  cache_control?: CacheControl;
}
export interface AnthropicImageBlock {
  type: "image";
  source:
    | { type: "base64"; media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp"; data: string }
    | { type: "url"; url: string };
  cache_control?: CacheControl;
}
export interface AnthropicDocumentBlock {
  type: "document";
  source:
    | { type: "base64"; media_type: "application/pdf"; data: string }
    | { type: "text"; media_type: "text/plain"; data: string }
    | { type: "url"; url: string };
  title?: string | null;
  cache_control?: CacheControl;
}
export interface AnthropicThinkingBlock {
  type: "thinking";
  thinking: string;
  signature: string;
}
export interface AnthropicRedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content?: string | (AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock)[];
  is_error?: boolean;
  cache_control?: CacheControl;
}
export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock;

export type AnthropicMessage =
  | { role: "user" | "assistant"; content: string | AnthropicBlock[] }
  | { role: "system"; content: string | AnthropicTextBlock[] };
export interface AnthropicConversation {
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessage[];
}

export interface AnthropicExportOptions {
  /**
   * Include thinking blocks (default: true — Anthropic wants them back with the tool calls they
   * led to). Only thinking imported in this format has the signature the API checks; other
   * reasoning is always left out.
   */
  includeReasoning?: boolean;
}

const roleOf = (type: StoredEvent["type"]): AnthropicMessage["role"] =>
  type === "SYSTEM" ? "system" : type === "HUMAN" || type === "TOOL_RESULT" ? "user" : "assistant";

export function toAnthropicConversation(
  events: readonly StoredEvent[],
  options: AnthropicExportOptions = {},
): AnthropicConversation {
  const conversation: AnthropicConversation = { messages: [] };
  let open: AnthropicMessage | null = null;
  let openedBy: StoredEvent["type"] | null = null;
  let seenOther = false;

  for (const event of events) {
    const fields = readProviderFields(event.providerFields);
    const native = fields?.format === "ANTHROPIC_MESSAGES";
    if (event.type === "REASONING" && (!native || options.includeReasoning === false)) continue;
    const role = roleOf(event.type);

    if (event.type === "SYSTEM" && (native ? fields.topLevel : !seenOther)) {
      const asString = native ? fields.asString : messageParts(event) == null;
      addSystem(conversation, asString ? (event.content ?? "") : systemBlocks(event, native));
      continue;
    }
    seenOther = true;

    const blocks = native ? nativeBlocks(event) : foreignBlocks(event);
    // Imported messages say where each began. Otherwise steps of the same side share a message
    // (parallel tool results must), but two messages from the person stay two.
    const joins = native
      ? fields.continues === true
      : open?.role === role && role !== "system" && !(event.type === "HUMAN" && openedBy === "HUMAN");
    if (open && joins) {
      open.content = [...asBlocks(open.content), ...blocks] as AnthropicTextBlock[];
      continue;
    }
    const asString = native
      ? fields.asString === true
      : messageParts(event) == null && blocks.length === 1 && blocks[0]!.type === "text";
    open = { role, content: asString ? (event.content ?? "") : blocks } as AnthropicMessage;
    openedBy = event.type;
    conversation.messages.push(open);
  }
  return conversation;
}

function addSystem(conversation: AnthropicConversation, content: string | AnthropicTextBlock[]) {
  if (conversation.system === undefined) conversation.system = content;
  else conversation.system = [...asBlocks(conversation.system), ...asBlocks(content)] as AnthropicTextBlock[];
}

const asBlocks = (content: string | AnthropicBlock[]): AnthropicBlock[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : content;

function systemBlocks(event: StoredEvent, native: boolean): AnthropicTextBlock[] {
  if (native) return (partsOf(event) ?? [{ type: "text", text: event.content ?? "" }]) as AnthropicTextBlock[];
  const parts = messageParts(event);
  return parts
    ? parts.map((part) => ({ type: "text", text: toChatTextPart(part).text }))
    : [{ type: "text", text: event.content ?? "" }];
}

/** The blocks an event imported from Anthropic came from, as they were. */
function nativeBlocks(event: StoredEvent): AnthropicBlock[] {
  const fields = readProviderFields(event.providerFields)!;
  const block = fields.block ?? {};
  const parts = partsOf(event) as AnthropicBlock[] | null;
  if (fields.opaque) return parts ?? [];
  switch (event.type) {
    case "SYSTEM":
    case "HUMAN":
      return parts ?? [{ type: "text", text: event.content ?? "" }];
    case "AI":
      return [{ type: "text", text: event.content ?? "", ...block } as AnthropicTextBlock];
    case "REASONING":
      return [{ type: "thinking", thinking: event.content ?? "", ...block } as AnthropicThinkingBlock];
    case "TOOL_CALL":
      return [{ type: "tool_use", id: event.callId ?? "", name: event.toolName ?? "", input: event.args, ...block }];
    case "TOOL_RESULT": {
      const content = parts ?? event.content;
      return [
        {
          type: "tool_result",
          tool_use_id: event.callId ?? "",
          ...(content != null && { content }),
          ...block,
        } as AnthropicToolResultBlock,
      ];
    }
  }
}

/** The nearest blocks for an event written through GraphQL or imported in another format. */
function foreignBlocks(event: StoredEvent): AnthropicBlock[] {
  switch (event.type) {
    case "SYSTEM":
      return systemBlocks(event, false);
    case "HUMAN":
      return (messageParts(event) ?? [{ type: "text", text: event.content ?? "" }]).map(toAnthropicBlock);
    case "AI":
      return (messageParts(event) ?? [{ type: "text", text: event.content ?? "" }]).map((part) =>
        toAnthropicBlock(toChatTextPart(part)),
      );
    case "TOOL_CALL":
      return [{ type: "tool_use", id: event.callId ?? "", name: event.toolName ?? "", input: event.args ?? {} }];
    case "TOOL_RESULT": {
      const parts = partsOf(event);
      const content = parts ? parts.map(toAnthropicBlock) : (event.content ?? "");
      return [
        {
          type: "tool_result",
          tool_use_id: event.callId ?? "",
          content: content as AnthropicToolResultBlock["content"],
          ...(event.isError && { is_error: true }),
        },
      ];
    }
    case "REASONING":
      return [];
  }
}

const imageTypes = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** A part of any vocabulary as the nearest Anthropic user block (text, image, document). */
export function toAnthropicBlock(part: Part): AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock {
  const chat = toChatPart(part);
  switch (chat.type) {
    case "image_url": {
      const data = parseDataUrl(chat.image_url.url);
      if (!data) return { type: "image", source: { type: "url", url: chat.image_url.url } };
      if (imageTypes.has(data.mediaType)) {
        const media_type = data.mediaType as "image/png";
        return { type: "image", source: { type: "base64", media_type, data: data.data } };
      }
      return { type: "text", text: `[image (${data.mediaType}) left out: Anthropic takes jpeg, png, gif and webp]` };
    }
    case "file": {
      const data = chat.file.file_data ? parseDataUrl(chat.file.file_data) : null;
      const title = chat.file.filename ? { title: chat.file.filename } : {};
      if (data?.mediaType === "application/pdf") {
        return {
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: data.data },
          ...title,
        };
      }
      return { type: "text", text: `[file ${chat.file.filename ?? chat.file.file_id ?? ""}]`.replace(" ]", "]") };
    }
    case "input_audio":
      return {
        type: "text",
        text: `[audio (${chat.input_audio.format}) left out: Anthropic messages have no audio block]`,
      };
    default:
      return { type: "text", text: toChatTextPart(chat).text };
  }
}
