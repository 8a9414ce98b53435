// Chat-completions messages into events: the inverse of toChatMessages. An assistant message
// becomes its reasoning (reasoning_content), its text, then one event per tool call, so the
// history reads in the order the model produced it. Keys dialogql has no column for (name, refusal, …)
// are kept with the event and given back by a chat export.
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
import { chatTextPartSchema, contentPartSchema, refusalPartSchema } from "../vocabulary/parts.js";
import { extraKeys, type ProviderFields } from "../vocabulary/provider-fields.js";
import type { ImportedEvent } from "./turns.js";

type Message = Record<string, unknown>;

const assistantPartSchema = z.discriminatedUnion("type", [chatTextPartSchema, refusalPartSchema]);

const toolName = z.string().refine((name) => name.trim() !== "", "a tool call needs a name");
const toolCallSchema = z.looseObject({
  id: z.string().min(1, "a tool call needs its id"),
  type: z.literal("function", 'expected a "function" or "custom" tool call'),
  function: z.strictObject({ name: toolName, arguments: z.unknown() }),
});
// A custom tool's input is free text, not JSON: it is kept as the call's `args.input`.
const customToolCallSchema = z.looseObject({
  id: z.string().min(1, "a tool call needs its id"),
  type: z.literal("custom"),
  custom: z.strictObject({ name: toolName, input: z.string() }),
});

const chatFields = (message: Message, known: string[], more: Partial<ProviderFields> = {}): ProviderFields => {
  const extra = extraKeys(message, known);
  return { format: "OPENAI_CHAT", ...more, ...(extra && { extra }) };
};

export function fromChatMessages(messages: unknown, path: string[] = ["messages"]): ImportedEvent[] {
  const list = requireList(messages, path, "chat messages");
  const problems: Problems = [];
  const imported: ImportedEvent[] = [];
  const calls = new Map<string, string>(); // call id → tool name, for the tool messages answering them
  list.forEach((message, index) => {
    const at = [...path, String(index)];
    if (!isJsonObject(message)) return void problems.push({ path: at, message: "must be a message object" });
    const before = problems.length;
    const events = readMessage(message, at, problems, calls);
    if (problems.length !== before) return;
    for (const event of events) {
      imported.push({ event, path: at, ...(event.type === "TOOL_RESULT" && { callIdPath: [...at, "tool_call_id"] }) });
    }
  });
  if (problems.length) throw new ValidationError(problems);
  return imported;
}

function readMessage(message: Message, at: string[], problems: Problems, calls: Map<string, string>): NewEvent[] {
  // No closure made per message here: a Chat Completions request brings thousands.
  switch (message.role) {
    case "system":
    case "developer": {
      const read = contentOf(message, at, problems, chatTextPartSchema);
      const role = message.role === "developer" ? { role: "developer" as const } : {};
      return read
        ? [blankEvent("SYSTEM", { ...read, providerFields: chatFields(message, ["role", "content"], role) })]
        : [];
    }
    case "user": {
      const read = contentOf(message, at, problems, contentPartSchema);
      return read ? [blankEvent("HUMAN", { ...read, providerFields: chatFields(message, ["role", "content"]) })] : [];
    }
    case "assistant":
      return readAssistant(message, at, problems, calls);
    case "tool": {
      const callId = requireString(message.tool_call_id, [...at, "tool_call_id"], problems, "tool_call_id");
      const read = contentOf(message, at, problems, chatTextPartSchema);
      if (!callId || !read) return [];
      const providerFields = chatFields(message, ["role", "tool_call_id", "content"]);
      const toolName = calls.get(callId) ?? null;
      return [
        blankEvent("TOOL_RESULT", { callId, toolName, isError: false, ...toolResultContent(read), providerFields }),
      ];
    }
    default:
      problems.push({
        path: [...at, "role"],
        message: `unsupported role ${JSON.stringify(message.role)}: expected system, developer, user, assistant or tool`,
      });
      return [];
  }
}

const contentOf = (message: Message, at: string[], problems: Problems, schema: z.ZodType) =>
  readContent(message.content, [...at, "content"], problems, schema);

function readAssistant(message: Message, at: string[], problems: Problems, calls: Map<string, string>): NewEvent[] {
  const before = problems.length;
  const events: NewEvent[] = [];
  const { content, tool_calls: toolCalls, reasoning_content: reasoning } = message;
  if (reasoning != null) {
    if (typeof reasoning === "string") events.push(blankEvent("REASONING", { content: reasoning }));
    else problems.push({ path: [...at, "reasoning_content"], message: "must be a string" });
  }
  if (content != null) {
    const read = readContent(content, [...at, "content"], problems, assistantPartSchema);
    if (read) events.push(blankEvent("AI", read));
  }
  if (toolCalls != null) {
    if (!Array.isArray(toolCalls) || !toolCalls.length) {
      problems.push({ path: [...at, "tool_calls"], message: "must be a non-empty list of tool calls" });
    } else {
      toolCalls.forEach((call, index) => {
        const event = readToolCall(call, [...at, "tool_calls", String(index)], problems, calls);
        if (event) events.push(event);
      });
    }
  }
  if (!events.length && problems.length === before) {
    problems.push({ path: at, message: "an assistant message needs content, tool_calls or reasoning_content" });
  }
  // A known key sent as null (tool_calls: null) is kept as an extra key, so it comes back too.
  const known = ["role", "content", "tool_calls", "reasoning_content"].filter(
    (k) => k === "content" || message[k] != null,
  );
  const extra = extraKeys(message, known);
  // The message's own keys ride on the event that starts it even when reasoning is left out.
  const carrier = events.find((event) => event.type !== "REASONING") ?? events[0];
  events.forEach((event, index) => {
    event.providerFields = {
      format: "OPENAI_CHAT",
      ...event.providerFields,
      ...(index > 0 && { continues: true }),
      ...(event === carrier && extra && { extra }),
    };
  });
  return events;
}

function readToolCall(call: unknown, at: string[], problems: Problems, calls: Map<string, string>): NewEvent | null {
  if (isJsonObject(call) && call.type === "custom") return readCustomToolCall(call, at, problems, calls);
  const parsed = toolCallSchema.safeParse(call);
  if (!parsed.success) return (zodProblems(parsed.error.issues, at, problems), null);
  const { id, function: fn } = parsed.data;
  claimCallId(id, fn.name, calls, [...at, "id"], problems);
  const args = parseArguments(fn.arguments, [...at, "function", "arguments"], problems);
  if (!args) return null;
  const callExtra = extraKeys(parsed.data, ["id", "type", "function"]);
  return blankEvent("TOOL_CALL", {
    callId: id,
    toolName: fn.name,
    args,
    providerFields: { format: "OPENAI_CHAT", arguments: fn.arguments as string, ...(callExtra && { callExtra }) },
  });
}

function readCustomToolCall(
  call: unknown,
  at: string[],
  problems: Problems,
  calls: Map<string, string>,
): NewEvent | null {
  const parsed = customToolCallSchema.safeParse(call);
  if (!parsed.success) return (zodProblems(parsed.error.issues, at, problems), null);
  const { id, custom } = parsed.data;
  claimCallId(id, custom.name, calls, [...at, "id"], problems);
  const callExtra = extraKeys(parsed.data, ["id", "type", "custom"]);
  return blankEvent("TOOL_CALL", {
    callId: id,
    toolName: custom.name,
    args: { input: custom.input },
    providerFields: { format: "OPENAI_CHAT", custom: true, ...(callExtra && { callExtra }) },
  });
}
