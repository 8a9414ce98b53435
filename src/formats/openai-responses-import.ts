// Responses API input items into events, one event per item: the inverse of toResponsesItems.
// Accepted items are the ones a conversation is made of — messages, function calls and their
// outputs, reasoning — in the shapes the `openai` SDK types allow. Keys without a column (item
// ids, status, encrypted_content, …) are kept with the event and given back by a Responses export.
import { z } from "zod";
import { ValidationError } from "../errors.js";
import { blankEvent, type NewEvent } from "../vocabulary/events.js";
import { isJsonObject } from "../vocabulary/json.js";
import {
  claimCallId,
  parseArguments,
  type Problems,
  readContent,
  requireList,
  requireString,
  toolResultContent,
  zodProblems,
} from "./import-checks.js";
import {
  joinedText,
  type Part,
  responsesInputPartSchema,
  responsesOutputPartSchema,
  summaryPartSchema,
} from "../vocabulary/parts.js";
import { extraKeys, type ProviderFields } from "../vocabulary/provider-fields.js";
import type { ImportedEvent } from "./turns.js";

type Item = Record<string, unknown>;

const itemStatus = z.enum(["in_progress", "completed", "incomplete"]);
// What an assistant message may hold: output_text and refusal parts as the API returned them (with
// or without the item's id and status: clients replaying a history build them by hand), or the
// input parts of an easy message.
const assistantPartSchema = z.union([responsesOutputPartSchema, responsesInputPartSchema]);

/**
 * Items of the Responses input that are not conversation steps dialogql has columns for (built-in
 * tool calls and their outputs, MCP, compaction, item references, …): the API accepts them, so
 * they are stored whole and given back to a Responses export (see docs/formats.md).
 */
export const keptWholeItemTypes = new Set([
  "file_search_call",
  "computer_call",
  "computer_call_output",
  "web_search_call",
  "tool_search_call",
  "tool_search_output",
  "additional_tools",
  "configuration_update",
  "compaction",
  "compaction_trigger",
  "image_generation_call",
  "code_interpreter_call",
  "local_shell_call",
  "local_shell_call_output",
  "shell_call",
  "shell_call_output",
  "apply_patch_call",
  "apply_patch_call_output",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
  "mcp_call",
  "custom_tool_call",
  "custom_tool_call_output",
  "item_reference",
  "program",
  "program_output",
]);
const reasoningSchema = z.looseObject({
  id: z.string({ error: "a reasoning item needs the id the API gave it (rs_…)" }).min(1),
  summary: z.array(summaryPartSchema),
  encrypted_content: z.string().nullish(),
  content: z.array(z.looseObject({ type: z.literal("reasoning_text"), text: z.string() })).optional(),
  status: itemStatus.optional(),
});

const responsesFields = (item: Item, known: string[]): ProviderFields => {
  const extra = extraKeys(item, known);
  return { format: "OPENAI_RESPONSES", ...(extra && { extra }) };
};

export function fromResponsesItems(items: unknown, path: string[] = ["messages"]): ImportedEvent[] {
  const list = requireList(items, path, "Responses input items");
  const problems: Problems = [];
  const imported: ImportedEvent[] = [];
  const calls = new Map<string, string>();
  list.forEach((item, index) => {
    const at = [...path, String(index)];
    if (!isJsonObject(item)) return void problems.push({ path: at, message: "must be an item object" });
    const before = problems.length;
    const event = readItem(item, at, problems, calls);
    if (!event || problems.length !== before) return;
    imported.push({ event, path: at, ...(event.type === "TOOL_RESULT" && { callIdPath: [...at, "call_id"] }) });
  });
  if (problems.length) throw new ValidationError(problems);
  return imported;
}

function readItem(item: Item, at: string[], problems: Problems, calls: Map<string, string>): NewEvent | null {
  // `type` is optional on a message item: an object with a role is a message.
  const type = item.type ?? (item.role !== undefined ? "message" : undefined);
  switch (type) {
    case "message":
      return readMessage(item, at, problems);
    case "function_call": {
      const callId = requireString(item.call_id, [...at, "call_id"], problems, "call_id");
      const name = requireString(item.name, [...at, "name"], problems, "name");
      const args = parseArguments(item.arguments, [...at, "arguments"], problems);
      if (!callId || !name || !args) return null;
      claimCallId(callId, name, calls, [...at, "call_id"], problems);
      const fields = responsesFields(item, ["type", "call_id", "name", "arguments"]);
      return blankEvent("TOOL_CALL", {
        callId,
        toolName: name,
        args,
        providerFields: { ...fields, arguments: item.arguments as string },
      });
    }
    case "function_call_output": {
      const callId = requireString(item.call_id, [...at, "call_id"], problems, "call_id");
      const read = readContent(item.output, [...at, "output"], problems, responsesInputPartSchema);
      if (!callId || !read) return null;
      return blankEvent("TOOL_RESULT", {
        callId,
        toolName: calls.get(callId) ?? null,
        isError: false,
        ...toolResultContent(read),
        providerFields: responsesFields(item, ["type", "call_id", "output"]),
      });
    }
    case "reasoning": {
      const parsed = reasoningSchema.safeParse(item);
      if (!parsed.success) return (zodProblems(parsed.error.issues, at, problems), null);
      const summary = parsed.data.summary as Part[];
      return blankEvent("REASONING", {
        content: joinedText(summary, "\n\n"),
        parts: summary,
        providerFields: responsesFields(item, ["type", "summary"]),
      });
    }
    default:
      if (typeof type === "string" && keptWholeItemTypes.has(type)) {
        return blankEvent("AI", {
          parts: [item as Part],
          providerFields: { format: "OPENAI_RESPONSES", opaque: true },
        });
      }
      problems.push({
        path: [...at, "type"],
        message: `unsupported item type ${JSON.stringify(type)}: not a Responses API input item`,
      });
      return null;
  }
}

function readMessage(item: Item, at: string[], problems: Problems): NewEvent | null {
  // `type` is kept among the extra keys, so an item that left it out comes back without it.
  const providerFields = responsesFields(item, ["role", "content"]);
  const contentPath = [...at, "content"];
  switch (item.role) {
    case "user":
    case "system":
    case "developer": {
      const read = readContent(item.content, contentPath, problems, responsesInputPartSchema);
      if (!read) return null;
      if (item.role === "developer") providerFields.role = "developer";
      return blankEvent(item.role === "user" ? "HUMAN" : "SYSTEM", { ...read, providerFields });
    }
    case "assistant": {
      const read = readContent(item.content, contentPath, problems, assistantPartSchema);
      return read ? blankEvent("AI", { ...read, providerFields }) : null;
    }
    default:
      problems.push({
        path: [...at, "role"],
        message: `unsupported role ${JSON.stringify(item.role)}: expected user, system, developer or assistant`,
      });
      return null;
  }
}
