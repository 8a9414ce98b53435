// A context (the events of a chain, root first) as the AI SDK's provider-neutral messages, so one
// conversion serves every provider. User images go to the model; other parts (audio, files) as
// their text only. Consecutive model-side events (reasoning, text, tool calls)
// make one assistant message; tool results make a tool message, as every provider expects. MCP tool
// listings and approval requests and answers are bookkeeping the model is not given (src/mcp/mcp-events.ts).
import type { AssistantModelMessage, ModelMessage, ToolModelMessage, UserModelMessage } from "ai";
import { joinedText, type Part } from "../vocabulary/parts.js";
import { messageParts, type StoredEvent } from "../formats/stored-event.js";
import { isMcpBookkeeping } from "../mcp/mcp-events.js";
import { sentBackOf } from "./output-items.js";

type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];
type ToolPart = ToolModelMessage["content"][number];

/** An event's text: its content, or the text of its parts. */
function textOf(event: StoredEvent) {
  const parts = messageParts(event);
  return parts ? joinedText(parts as Part[]) : (event.content ?? "");
}

export function toModelMessages(events: readonly StoredEvent[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const last = () => messages[messages.length - 1];
  const assistant = (part: AssistantPart) => {
    const current = last();
    if (current?.role === "assistant" && Array.isArray(current.content)) current.content.push(part);
    else messages.push({ role: "assistant", content: [part] });
  };
  const toolResult = (part: ToolPart) => {
    const current = last();
    if (current?.role === "tool") current.content.push(part);
    else messages.push({ role: "tool", content: [part] });
  };
  for (const event of events) {
    if (isMcpBookkeeping(event.callId)) continue;
    switch (event.type) {
      case "SYSTEM":
        messages.push({ role: "system", content: textOf(event) });
        break;
      case "HUMAN":
        messages.push({ role: "user", content: userContent(event) });
        break;
      case "AI":
        assistant({ type: "text", text: textOf(event) });
        break;
      case "REASONING":
        assistant(reasoningPart(event));
        break;
      case "TOOL_CALL":
        assistant({
          type: "tool-call",
          toolCallId: event.callId ?? "",
          toolName: event.toolName ?? "",
          input: event.args ?? {},
        });
        break;
      case "TOOL_RESULT":
        toolResult({
          type: "tool-result",
          toolCallId: event.callId ?? "",
          toolName: event.toolName ?? "",
          output: { type: event.isError ? "error-text" : "text", value: textOf(event) },
        });
        break;
    }
  }
  return messages;
}

/**
 * Reasoning, with what its upstream gave to have it back: a Responses upstream takes reasoning
 * only with its encrypted content, Anthropic a thinking block only with its signature (the AI
 * SDK's providers read these options). Reasoning from elsewhere goes as text, which they skip.
 */
function reasoningPart(event: StoredEvent): AssistantPart {
  const { encryptedContent, signature } = sentBackOf(event.providerFields);
  const providerOptions = {
    ...(encryptedContent && { openai: { reasoningEncryptedContent: encryptedContent } }),
    ...(signature && { anthropic: { signature } }),
  };
  const text = event.content ?? "";
  return Object.keys(providerOptions).length
    ? { type: "reasoning", text, providerOptions }
    : { type: "reasoning", text };
}

/** A user message's text, with its images (image_url parts) when it has any. */
function userContent(event: StoredEvent): UserModelMessage["content"] {
  const parts = (messageParts(event) ?? []) as Part[];
  const images = parts.filter((part) => part.type === "image_url");
  if (!images.length) return textOf(event);
  return [
    ...parts.flatMap((part) => (part.type === "text" ? [{ type: "text" as const, text: String(part.text) }] : [])),
    ...images.map((part) => ({ type: "image" as const, image: String(part.image_url.url) })),
  ];
}
