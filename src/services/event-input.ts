// Turns the HistoryEventInput objects of a write into rows to insert, validating each one
// strictly. All problems of a write are reported together, each with its input path.
import type { WriteLimits } from "../store/store.js";
import { type FieldError, ValidationError } from "../errors.js";
import { contentPartSchema } from "../vocabulary/parts.js";
import type { HistoryEventType } from "../generated/prisma/enums.js";
import {
  blankEvent,
  type HistoryEventInput,
  type MessageInput,
  type NewEvent,
  type ReasoningInput,
  type ToolCallInput,
  type ToolResultInput,
} from "../vocabulary/events.js";
import { newCallId } from "../ids.js";
import { isJsonObject } from "../vocabulary/json.js";

/** A write may hold at most MAX_EVENTS_PER_WRITE events. */
export function checkEventCount(limits: WriteLimits, count: number, path: string[]) {
  if (count > limits.eventsPerWrite) {
    throw ValidationError.at(path, `at most ${limits.eventsPerWrite} events per write (got ${count})`);
  }
}

/** An event (as the client sent it) may serialize to at most MAX_EVENT_BYTES. */
export function checkEventSize(limits: WriteLimits, value: unknown, path: string[], errors: FieldError[]) {
  const size = Buffer.byteLength(JSON.stringify(value));
  if (size > limits.eventBytes) {
    errors.push({ path, message: `event is ${size} bytes; the limit is ${limits.eventBytes}` });
  }
}

const kinds = ["human", "ai", "system", "reasoning", "toolCall", "toolResult"] as const;
type Kind = (typeof kinds)[number];

const typeOfKind: Record<Kind, HistoryEventType> = {
  human: "HUMAN",
  ai: "AI",
  system: "SYSTEM",
  reasoning: "REASONING",
  toolCall: "TOOL_CALL",
  toolResult: "TOOL_RESULT",
};

/** Validates a write's events; `path` is where they sit in the mutation input, e.g. ["input"]. */
export function parseEventInputs(limits: WriteLimits, inputs: HistoryEventInput[], path: string[]): NewEvent[] {
  const errors: FieldError[] = [];
  checkEventCount(limits, inputs.length, path);
  const events = inputs.map((input, index) => parseOne(limits, input, [...path, String(index)], errors));
  if (errors.length) throw new ValidationError(errors);
  return events as NewEvent[];
}

function parseOne(
  limits: WriteLimits,
  input: HistoryEventInput,
  path: string[],
  errors: FieldError[],
): NewEvent | null {
  const set = kinds.filter((kind) => input[kind] != null);
  if (set.length !== 1) {
    errors.push({ path, message: `exactly one of ${kinds.join(", ")} must be set` });
    return null;
  }
  const kind = set[0]!;
  const fields = input[kind]!;
  const at = [...path, kind];
  const fail = (field: string, message: string) => void errors.push({ path: [...at, field], message });
  const before = errors.length;

  const event = blankEvent(typeOfKind[kind], { createdAt: fields.createdAt ?? null });
  if (fields.metadata != null) {
    if (isJsonObject(fields.metadata)) event.metadata = fields.metadata;
    else fail("metadata", "must be a JSON object");
  }

  switch (kind) {
    case "human":
    case "ai":
    case "system": {
      const { content, parts } = fields as MessageInput;
      event.content = content ?? null;
      if (parts != null) {
        event.parts = parts;
        parts.forEach((part, i) => {
          const parsed = contentPartSchema.safeParse(part);
          if (!parsed.success) fail(`parts.${i}`, parsed.error.issues.map((issue) => issue.message).join("; "));
        });
      }
      if (content == null && !parts?.length) fail("content", "content or parts is required");
      break;
    }
    case "reasoning": {
      const { content, modelName, providerFields } = fields as ReasoningInput;
      if (content == null) fail("content", "content is required");
      event.content = content ?? null;
      event.modelName = modelName ?? null;
      if (providerFields) event.providerFields = providerFields;
      break;
    }
    case "toolCall": {
      const { callId, toolName, args } = fields as ToolCallInput;
      if (!toolName?.trim()) fail("toolName", "a tool call needs a tool name");
      if (args != null && !isJsonObject(args)) fail("args", "tool call arguments must be a JSON object");
      if (callId === "") fail("callId", "must not be empty");
      event.callId = callId || newCallId();
      event.toolName = toolName ?? null;
      event.args = args ?? {};
      break;
    }
    case "toolResult": {
      const { callId, toolName, content, isError } = fields as ToolResultInput;
      if (!callId) fail("callId", "a tool result needs the callId of the call it answers");
      if (content == null) fail("content", "content is required");
      event.callId = callId ?? null;
      event.toolName = toolName ?? null;
      event.content = content ?? null;
      event.isError = isError ?? false;
      break;
    }
  }

  checkEventSize(limits, fields, at, errors);
  return errors.length === before ? event : null;
}
