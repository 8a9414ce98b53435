// A context as Responses API input items: `message` items (input_text / input_image / input_file
// parts; an assistant's output_text), `function_call`, `function_call_output` and `reasoning`
// items. Each event is one item. Items imported in this format come back exactly as they came
// (ids, status, encrypted reasoning included); others get the canonical shapes below.
// test/openai-sdk-types.test-d.ts checks these types against the `openai` package.
import { joinedText, toResponsesInputPart } from "../vocabulary/parts.js";
import { extraFor, readProviderFields } from "../vocabulary/provider-fields.js";
import { messageParts, partsOf, type StoredEvent } from "./stored-event.js";

type ItemStatus = "in_progress" | "completed" | "incomplete";

export interface ResponsesInputText {
  type: "input_text";
  text: string;
}
export interface ResponsesInputImage {
  type: "input_image";
  detail: "low" | "high" | "auto" | "original";
  image_url?: string | null;
  file_id?: string | null;
}
export interface ResponsesInputFile {
  type: "input_file";
  file_id?: string | null;
  file_data?: string;
  file_url?: string;
  filename?: string;
}
export type ResponsesInputPart = ResponsesInputText | ResponsesInputImage | ResponsesInputFile;

export type ResponsesAnnotation =
  | { type: "file_citation"; file_id: string; filename: string; index: number }
  | { type: "url_citation"; url: string; title: string; start_index: number; end_index: number }
  | {
      type: "container_file_citation";
      container_id: string;
      file_id: string;
      filename: string;
      start_index: number;
      end_index: number;
    }
  | { type: "file_path"; file_id: string; index: number };

interface TopLogprob {
  token: string;
  bytes: number[];
  logprob: number;
}
export interface ResponsesOutputText {
  type: "output_text";
  text: string;
  annotations: ResponsesAnnotation[];
  logprobs?: (TopLogprob & { top_logprobs: TopLogprob[] })[];
}
export interface ResponsesRefusal {
  type: "refusal";
  refusal: string;
}

/** A message given to the model, or an assistant's text as a plain string. */
export interface ResponsesMessageItem {
  type?: "message";
  role: "user" | "system" | "developer" | "assistant";
  content: string | ResponsesInputPart[];
}
/** An assistant message as the API returned it: with its id, status and output_text parts. */
export interface ResponsesOutputMessageItem {
  type: "message";
  id: string;
  role: "assistant";
  status: ItemStatus;
  content: (ResponsesOutputText | ResponsesRefusal)[];
}
export interface ResponsesFunctionCallItem {
  type: "function_call";
  call_id: string;
  name: string;
  /** A JSON string. */
  arguments: string;
  id?: string;
  status?: ItemStatus;
}
export interface ResponsesFunctionCallOutputItem {
  type: "function_call_output";
  call_id: string;
  output: string | ResponsesInputPart[];
  id?: string | null;
  status?: ItemStatus | null;
}
export interface ResponsesReasoningItem {
  type: "reasoning";
  id: string;
  summary: { type: "summary_text"; text: string }[];
  encrypted_content?: string | null;
  content?: { type: "reasoning_text"; text: string }[];
  status?: ItemStatus;
}
export type ResponsesItem =
  | ResponsesMessageItem
  | ResponsesOutputMessageItem
  | ResponsesFunctionCallItem
  | ResponsesFunctionCallOutputItem
  | ResponsesReasoningItem;

export interface ResponsesExportOptions {
  /**
   * Include reasoning items (default: true — the Responses API wants them back next to the function
   * calls they led to). Only reasoning imported in this format has the item id the API needs;
   * other reasoning is always left out.
   */
  includeReasoning?: boolean;
}

export function toResponsesItems(
  events: readonly StoredEvent[],
  options: ResponsesExportOptions = {},
): ResponsesItem[] {
  const items: ResponsesItem[] = [];
  for (const event of events) {
    const fields = readProviderFields(event.providerFields);
    const native = fields?.format === "OPENAI_RESPONSES";
    const extra = extraFor(fields, "OPENAI_RESPONSES");
    // Imported message items say themselves whether they had `type: "message"` (it is optional).
    const message = native ? {} : { type: "message" as const };
    switch (event.type) {
      case "SYSTEM":
      case "HUMAN": {
        const role = event.type === "HUMAN" ? "user" : (fields?.role ?? "system");
        const parts = messageParts(event)?.map(toResponsesInputPart) as ResponsesInputPart[] | undefined;
        items.push({ ...message, role, content: parts ?? event.content ?? "", ...extra });
        break;
      }
      case "AI": {
        // An item kept whole (a built-in tool call, an MCP item, …) goes back as it came.
        if (native && fields.opaque) {
          items.push(...((partsOf(event) ?? []) as ResponsesItem[]));
          break;
        }
        const parts = messageParts(event);
        // Assistant parts go back as parts only to the format they came from.
        const content = parts && !native ? joinedText(parts) : (parts ?? event.content ?? "");
        items.push({ ...message, role: "assistant", content, ...extra } as ResponsesItem);
        break;
      }
      case "REASONING": {
        if (options.includeReasoning === false || !(native && typeof extra.id === "string")) break;
        const summary = partsOf(event) ?? (event.content ? [{ type: "summary_text", text: event.content }] : []);
        items.push({ type: "reasoning", summary, ...extra } as ResponsesReasoningItem);
        break;
      }
      case "TOOL_CALL":
        items.push({
          type: "function_call",
          call_id: event.callId ?? "",
          name: event.toolName ?? "",
          arguments: fields?.arguments ?? JSON.stringify(event.args ?? {}),
          ...extra,
        });
        break;
      case "TOOL_RESULT": {
        const parts = partsOf(event)?.map(toResponsesInputPart) as ResponsesInputPart[] | undefined;
        items.push({
          type: "function_call_output",
          call_id: event.callId ?? "",
          output: parts ?? event.content ?? "",
          ...extra,
        });
        break;
      }
    }
  }
  return items;
}
