// Turns the HistoryEventInput objects of a write into rows to insert, validating each one
// strictly. All problems of a write are reported together, each with its input path.
import { z } from "zod";
import { config } from "../config.js";
import { type FieldError, ValidationError } from "../errors.js";
import type { HistoryEventType } from "../generated/prisma/enums.js";
import { newCallId } from "../ids.js";
import { isJsonObject } from "./json.js";

type Json = unknown;

interface CommonInput {
  metadata?: Json | null;
  createdAt?: Date | null;
}
export interface MessageInput extends CommonInput {
  content?: string | null;
  parts?: Json[] | null;
}
export interface ReasoningInput extends CommonInput {
  content?: string | null;
  modelName?: string | null;
}
export interface ToolCallInput extends CommonInput {
  callId?: string | null;
  toolName?: string | null;
  args?: Json | null;
}
export interface ToolResultInput extends CommonInput {
  callId?: string | null;
  toolName?: string | null;
  content?: string | null;
  isError?: boolean | null;
}

/** The GraphQL `@oneOf` input: exactly one field is set. */
export interface HistoryEventInput {
  human?: MessageInput | null;
  ai?: MessageInput | null;
  system?: MessageInput | null;
  reasoning?: ReasoningInput | null;
  toolCall?: ToolCallInput | null;
  toolResult?: ToolResultInput | null;
}

export interface NewEvent {
  type: HistoryEventType;
  content: string | null;
  parts: Json[] | null;
  modelName: string | null;
  callId: string | null;
  toolName: string | null;
  args: Json | null;
  isError: boolean | null;
  metadata: Record<string, unknown>;
  createdAt: Date | null;
}

// OpenAI chat content parts. Extra keys are kept so nothing a client sent is lost on export.
export const contentPartSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string() }),
  z.looseObject({
    type: z.literal("image_url"),
    image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(["auto", "low", "high"]).optional() }),
  }),
  z.looseObject({
    type: z.literal("input_audio"),
    input_audio: z.looseObject({ data: z.string().min(1), format: z.string().min(1) }),
  }),
  z.looseObject({
    type: z.literal("file"),
    file: z
      .looseObject({
        file_id: z.string().optional(),
        file_data: z.string().optional(),
        filename: z.string().optional(),
      })
      .refine((f) => f.file_id || f.file_data, "a file part needs file_id or file_data"),
  }),
]);

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
export function parseEventInputs(inputs: HistoryEventInput[], path: string[]): NewEvent[] {
  const errors: FieldError[] = [];
  if (inputs.length > config.MAX_EVENTS_PER_WRITE) {
    throw ValidationError.at(path, `at most ${config.MAX_EVENTS_PER_WRITE} events per write (got ${inputs.length})`);
  }
  const events = inputs.map((input, index) => parseOne(input, [...path, String(index)], errors));
  if (errors.length) throw new ValidationError(errors);
  return events as NewEvent[];
}

function parseOne(input: HistoryEventInput, path: string[], errors: FieldError[]): NewEvent | null {
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

  const event: NewEvent = {
    type: typeOfKind[kind],
    content: null,
    parts: null,
    modelName: null,
    callId: null,
    toolName: null,
    args: null,
    isError: null,
    metadata: {},
    createdAt: fields.createdAt ?? null,
  };
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
      const { content, modelName } = fields as ReasoningInput;
      if (content == null) fail("content", "content is required");
      event.content = content ?? null;
      event.modelName = modelName ?? null;
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

  const size = Buffer.byteLength(JSON.stringify(fields));
  if (size > config.MAX_EVENT_BYTES) {
    errors.push({ path: at, message: `event is ${size} bytes; the limit is ${config.MAX_EVENT_BYTES}` });
  }
  return errors.length === before ? event : null;
}
