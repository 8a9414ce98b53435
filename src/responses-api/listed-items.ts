// Stored items as the API lists them (input_items, conversation items): each with its id, a
// message's content always a list of parts (`input_text` for what was given to the model,
// `output_text` for an assistant's answer), as OpenAI lists them.
import type { Event } from "../generated/prisma/client.js";
import { inputItemOf } from "./item-references.js";

type Item = Record<string, unknown>;

export function listedItem(id: string, event: Event): Item {
  const item: Item = { ...inputItemOf(event), id };
  if (item.type === "function_call" || item.type === "function_call_output") return { status: "completed", ...item };
  if (item.type !== undefined && item.type !== "message") return item;
  const assistant = item.role === "assistant";
  const content = typeof item.content === "string" ? [textPart(item.content, assistant)] : item.content;
  return { type: "message", status: "completed", ...item, content };
}

const textPart = (text: string, assistant: boolean) =>
  assistant ? { type: "output_text", text, annotations: [], logprobs: [] } : { type: "input_text", text };
