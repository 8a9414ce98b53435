// A context as chat-completions messages: system and user messages,
// assistant messages holding their text and every tool call they made (parallel calls share one
// message), tool messages answering them. Metadata and timestamps are left out; reasoning only on
// request, as `reasoning_content` (the field OpenAI-compatible reasoning servers use).
// test/openai-sdk-types.test-d.ts checks these types against the `openai` package.
import { toChatPart, toChatTextPart } from "../vocabulary/parts.js";
import { extraFor, readProviderFields } from "../vocabulary/provider-fields.js";
import { messageParts, partsOf, type StoredEvent } from "./stored-event.js";

export interface ChatTextPart {
  type: "text";
  text: string;
}
export interface ChatImagePart {
  type: "image_url";
  image_url: { url: string; detail?: "auto" | "low" | "high" | "original" };
}
export interface ChatAudioPart {
  type: "input_audio";
  input_audio: { data: string; format: "wav" | "mp3" };
}
export interface ChatFilePart {
  type: "file";
  file: { file_id?: string; file_data?: string; filename?: string };
}
export interface ChatRefusalPart {
  type: "refusal";
  refusal: string;
}
export type ChatUserPart = ChatTextPart | ChatImagePart | ChatAudioPart | ChatFilePart;

export interface ChatSystemMessage {
  role: "system" | "developer";
  content: string | ChatTextPart[];
  name?: string;
}
export interface ChatUserMessage {
  role: "user";
  content: string | ChatUserPart[];
  name?: string;
}
export type ChatToolCall =
  | { id: string; type: "function"; function: { name: string; arguments: string } }
  | { id: string; type: "custom"; custom: { name: string; input: string } };
export interface ChatAssistantMessage {
  role: "assistant";
  /** null when the message only calls tools. */
  content: string | (ChatTextPart | ChatRefusalPart)[] | null;
  tool_calls?: ChatToolCall[];
  /** Only with includeReasoning. */
  reasoning_content?: string;
  name?: string;
}
export interface ChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string | ChatTextPart[];
}
export type ChatMessage = ChatSystemMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage;

export interface ChatExportOptions {
  /** Put reasoning on the assistant messages as `reasoning_content` (default: left out). */
  includeReasoning?: boolean;
}

export function toChatMessages(events: readonly StoredEvent[], options: ChatExportOptions = {}): ChatMessage[] {
  const messages: ChatMessage[] = [];
  // The assistant message later events of the same turn may still add to.
  let open = null as ChatAssistantMessage | null;
  const startAssistant = (content: ChatAssistantMessage["content"]) => {
    open = { role: "assistant", content };
    messages.push(open);
    return open;
  };

  for (const event of events) {
    const fields = readProviderFields(event.providerFields);
    const extra = extraFor(fields, "OPENAI_CHAT");
    // Imported chat messages say where each assistant message started; for anything else, tool
    // calls join the assistant message before them (parallel calls), and text fills a message
    // opened by its reasoning.
    const mayJoin = fields?.format === "OPENAI_CHAT" ? fields.continues === true : true;
    const current: ChatAssistantMessage | null = mayJoin ? open : null;
    const empty = current && current.content === null && !current.tool_calls ? current : null;

    switch (event.type) {
      case "SYSTEM":
      case "HUMAN":
      case "TOOL_RESULT": {
        open = null;
        messages.push({ ...givenMessage(event, fields?.role), ...extra } as ChatMessage);
        break;
      }
      case "REASONING": {
        if (!options.includeReasoning) {
          // Left out, but still the start of a message: what follows must not join the one before.
          open = null;
          break;
        }
        const text = event.content ?? "";
        const message = empty ?? startAssistant(null);
        message.reasoning_content =
          message.reasoning_content == null ? text : `${message.reasoning_content}\n\n${text}`;
        Object.assign(message, extra);
        break;
      }
      case "AI": {
        const content = assistantContent(event);
        const message = empty ?? startAssistant(content);
        message.content = content;
        Object.assign(message, extra);
        break;
      }
      case "TOOL_CALL": {
        const message = current ?? startAssistant(null);
        const custom = fields?.format === "OPENAI_CHAT" && fields.custom;
        (message.tool_calls ??= []).push({
          id: event.callId ?? "",
          ...(custom
            ? {
                type: "custom",
                custom: { name: event.toolName ?? "", input: String((event.args as { input?: unknown })?.input ?? "") },
              }
            : {
                type: "function",
                function: {
                  name: event.toolName ?? "",
                  arguments: fields?.arguments ?? JSON.stringify(event.args ?? {}),
                },
              }),
          ...(fields?.format === "OPENAI_CHAT" && fields.callExtra),
        } as ChatToolCall);
        Object.assign(message, extra);
        break;
      }
    }
  }
  return messages;
}

function givenMessage(event: StoredEvent, role: "developer" | undefined): ChatMessage {
  switch (event.type) {
    case "SYSTEM": {
      const parts = messageParts(event)?.map((part) => toChatTextPart(part)) as ChatTextPart[] | undefined;
      return { role: role ?? "system", content: parts ?? event.content ?? "" };
    }
    case "HUMAN": {
      const parts = messageParts(event)?.map(toChatPart) as ChatUserPart[] | undefined;
      return { role: "user", content: parts ?? event.content ?? "" };
    }
    default: {
      const parts = partsOf(event)?.map((part) => toChatTextPart(part)) as ChatTextPart[] | undefined;
      return { role: "tool", tool_call_id: event.callId ?? "", content: parts ?? event.content ?? "" };
    }
  }
}

function assistantContent(event: StoredEvent): ChatAssistantMessage["content"] {
  const parts = messageParts(event)?.map((part) => toChatTextPart(part, { keepRefusal: true }));
  return (parts as (ChatTextPart | ChatRefusalPart)[] | undefined) ?? event.content;
}
