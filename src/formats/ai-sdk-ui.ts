// A context as Vercel AI SDK UIMessages, the shape `useChat` renders and persists and
// `convertToModelMessages` turns into model input. One assistant message holds a whole agent
// loop: a `step-start` part opens each step, tool parts carry their call and, once answered,
// their output (`output-available`) or error (`output-error`). Messages imported in this format
// come back exactly (ids, metadata, part states, provider metadata); other events get these
// shapes, with the event id as message id. test/provider-sdk-types.test-d.ts checks these types
// against the `ai` package.
import { type Part, parseDataUrl, toChatPart, toChatTextPart } from "../vocabulary/parts.js";
import { readProviderFields } from "../vocabulary/provider-fields.js";
import { messageParts, partsOf, type StoredEvent } from "./stored-event.js";

export interface UiTextPart {
  type: "text";
  text: string;
  state?: "streaming" | "done";
}
export interface UiReasoningPart {
  type: "reasoning";
  text: string;
  state?: "streaming" | "done";
}
export interface UiFilePart {
  type: "file";
  mediaType: string;
  url: string;
  filename?: string;
}
export interface UiStepStartPart {
  type: "step-start";
}
export type UiToolPart = {
  type: `tool-${string}`;
  toolCallId: string;
} & (
  | { state: "input-available"; input: unknown }
  | { state: "output-available"; input: unknown; output: unknown }
  | { state: "output-error"; input: unknown; errorText: string }
);
export type UiDynamicToolPart = {
  type: "dynamic-tool";
  toolName: string;
  toolCallId: string;
} & (
  | { state: "input-available"; input: unknown }
  | { state: "output-available"; input: unknown; output: unknown }
  | { state: "output-error"; input: unknown; errorText: string }
);
export type UiPart = UiTextPart | UiReasoningPart | UiFilePart | UiStepStartPart | UiToolPart | UiDynamicToolPart;
export interface UiMessage {
  id: string;
  role: "system" | "user" | "assistant";
  metadata?: unknown;
  parts: UiPart[];
}

export interface UiExportOptions {
  /** Include reasoning parts (default: true). */
  includeReasoning?: boolean;
}

const roleOf = (type: StoredEvent["type"]): UiMessage["role"] =>
  type === "SYSTEM" ? "system" : type === "HUMAN" ? "user" : "assistant";

type ToolPart = UiToolPart | UiDynamicToolPart;

export function toUiMessages(events: readonly StoredEvent[], options: UiExportOptions = {}): UiMessage[] {
  const messages: UiMessage[] = [];
  const toolParts = new Map<string, ToolPart>(); // call id → its part, for the result that answers it
  let open: UiMessage | null = null;
  let stepDone = false; // a tool result ended the step: the next assistant step starts anew

  events.forEach((event, index) => {
    const fields = readProviderFields(event.providerFields);
    const native = fields?.format === "AI_SDK_UI";
    const role = roleOf(event.type);
    if (event.type === "REASONING" && options.includeReasoning === false) return;

    const joins = native ? fields.continues === true : open?.role === "assistant" && role === "assistant";
    if (!open || !joins) {
      open = {
        id: event.id ? `msg_${event.id}` : `msg_${index}`,
        role,
        parts: [],
        ...(native && fields.extra),
      } as UiMessage;
      messages.push(open);
      stepDone = true;
    }
    const parts = open.parts as unknown[];
    if (native) {
      parts.push(...(fields.before ?? []), ...nativeParts(event), ...(fields.after ?? []));
      if (event.type === "TOOL_CALL")
        toolParts.set(event.callId ?? "", parts.at(-1 - (fields.after?.length ?? 0)) as ToolPart);
      return;
    }
    if (role === "assistant" && event.type !== "TOOL_RESULT" && stepDone) {
      parts.push({ type: "step-start" });
      stepDone = false;
    }
    if (event.type === "TOOL_RESULT") {
      stepDone = true;
      return answer(event, toolParts.get(event.callId ?? ""), parts);
    }
    const made = foreignParts(event);
    parts.push(...made);
    if (event.type === "TOOL_CALL") toolParts.set(event.callId ?? "", made[0] as ToolPart);
  });
  return messages;
}

/** The part an event imported from a UIMessage came from, as it was. */
function nativeParts(event: StoredEvent): unknown[] {
  const fields = readProviderFields(event.providerFields)!;
  const block = fields.block ?? {};
  if (fields.opaque) return partsOf(event) ?? [];
  switch (event.type) {
    case "SYSTEM":
    case "HUMAN":
      return partsOf(event) ?? [];
    case "AI":
      return [{ type: "text", text: event.content ?? "", ...block }];
    case "REASONING":
      return [{ type: "reasoning", text: event.content ?? "", ...block }];
    case "TOOL_CALL":
      return [{ toolCallId: event.callId, ...(!fields.noInput && { input: event.args }), ...block }];
    case "TOOL_RESULT":
      return []; // given back inside its call's part
  }
}

/** A tool result written after its call (in another import or through GraphQL) completes the call's part. */
function answer(event: StoredEvent, part: ToolPart | undefined, parts: unknown[]) {
  const output = event.content ?? "";
  const target: Record<string, unknown> = part ?? {
    type: "dynamic-tool",
    toolName: event.toolName ?? "",
    toolCallId: event.callId ?? "",
    input: {},
  };
  if (!part) parts.push(target);
  delete target.output;
  delete target.errorText;
  if (event.isError) Object.assign(target, { state: "output-error", errorText: output });
  else Object.assign(target, { state: "output-available", output });
}

function foreignParts(event: StoredEvent): UiPart[] {
  switch (event.type) {
    case "SYSTEM":
      return (messageParts(event) ?? [{ type: "text", text: event.content ?? "" }]).map((part) => ({
        type: "text",
        text: toChatTextPart(part).text,
      }));
    case "HUMAN":
    case "AI":
      return (messageParts(event) ?? [{ type: "text", text: event.content ?? "" }]).map(toUiPart);
    case "REASONING":
      return [{ type: "reasoning", text: event.content ?? "" }];
    case "TOOL_CALL":
      return [
        {
          type: `tool-${event.toolName ?? ""}`,
          toolCallId: event.callId ?? "",
          state: "input-available",
          input: event.args ?? {},
        },
      ];
    case "TOOL_RESULT":
      return [];
  }
}

const imageTypeByExtension: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/** A part of any vocabulary as the nearest UIMessage part: text, or a file with its media type. */
export function toUiPart(part: Part): UiTextPart | UiFilePart {
  const chat = toChatPart(part);
  switch (chat.type) {
    case "image_url": {
      const url: string = chat.image_url.url;
      const extension = /\.(\w+)(?:[?#].*)?$/.exec(url)?.[1]?.toLowerCase() ?? "";
      return {
        type: "file",
        mediaType: parseDataUrl(url)?.mediaType ?? imageTypeByExtension[extension] ?? "image/*",
        url,
      };
    }
    case "file": {
      const data = chat.file.file_data ? parseDataUrl(chat.file.file_data) : null;
      if (data)
        return {
          type: "file",
          mediaType: data.mediaType,
          url: chat.file.file_data,
          ...(chat.file.filename && { filename: chat.file.filename }),
        };
      return { type: "text", text: `[file ${chat.file.filename ?? chat.file.file_id ?? ""}]` };
    }
    case "input_audio":
      return {
        type: "file",
        mediaType: `audio/${chat.input_audio.format === "mp3" ? "mpeg" : "wav"}`,
        url: `data:audio/${chat.input_audio.format === "mp3" ? "mpeg" : "wav"};base64,${chat.input_audio.data}`,
      };
    default:
      return { type: "text", text: toChatTextPart(chat).text };
  }
}
