// The body of `POST /v1/responses`, checked strictly enough that a bad body is a 400 naming the
// parameter, and loosely enough that an SDK sending a parameter this server does not act on
// (include, prompt_cache_key…) is not refused. Input items are read by the Responses format
// importer (src/formats), the same one importMessages uses.
import { z } from "zod";
import { ValidationError } from "../errors.js";
import { importEvents } from "../formats/index.js";
import { type Part, toChatPart } from "../vocabulary/parts.js";
import { findUnstorable } from "../vocabulary/storable-text.js";
import type { FunctionTool, ToolChoice } from "../generation/generate-turn.js";
import type { HistoryEventInput, NewEvent } from "../vocabulary/events.js";

const functionTool = z.looseObject({
  type: z.literal("function", { error: "only function tools are supported" }),
  name: z.string().min(1).max(64),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

const toolChoice = z.union([
  z.enum(["auto", "none", "required"]),
  z.looseObject({ type: z.literal("function"), name: z.string().min(1) }),
]);

export const createBodySchema = z.looseObject({
  model: z.string({ error: "model is required" }).min(1),
  input: z.union([z.string(), z.array(z.unknown())]).optional(),
  instructions: z.string().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  conversation: z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })]).nullish(),
  store: z.boolean().nullish(),
  background: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  metadata: z
    .record(z.string().max(64), z.string().max(512))
    .refine((value) => Object.keys(value).length <= 16, "at most 16 metadata keys")
    .nullish(),
  tools: z.array(functionTool).nullish(),
  tool_choice: toolChoice.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_output_tokens: z.number().int().min(1).nullish(),
  max_tool_calls: z.number().int().min(1).nullish(),
  reasoning: z
    .looseObject({
      effort: z.enum(["minimal", "low", "medium", "high", "none", "xhigh"]).nullish(),
      summary: z.string().nullish(),
    })
    .nullish(),
  text: z.looseObject({}).nullish(),
  truncation: z.enum(["auto", "disabled"]).nullish(),
  user: z.string().nullish(),
  safety_identifier: z.string().nullish(),
  prompt_cache_key: z.string().nullish(),
});

export type CreateBody = z.infer<typeof createBodySchema>;

/** The request parameters a Response object echoes back (kept with the stored response). */
export interface EchoedParams {
  instructions: string | null;
  tools: unknown[];
  tool_choice: unknown;
  parallel_tool_calls: boolean;
  temperature: number | null;
  top_p: number | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  reasoning: unknown;
  text: unknown;
  truncation: string;
  user: string | null;
  safety_identifier: string | null;
  prompt_cache_key: string | null;
  background: boolean;
  /** Whether the caller named the dialog (`conversation`), so the object names it back. */
  conversation: boolean;
}

export interface ParsedCreate {
  body: CreateBody;
  store: boolean;
  stream: boolean;
  background: boolean;
  conversation: string | null;
  input: HistoryEventInput[];
  tools: FunctionTool[];
  toolChoice: ToolChoice | null;
  echoed: EchoedParams;
}

/** A problem with the body, as the API reports it: a message and the parameter it concerns. */
export class InvalidRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null,
  ) {
    super(message);
  }
}

export function parseCreateBody(raw: unknown): ParsedCreate {
  // Text PostgreSQL cannot store (a NUL, an unpaired surrogate) anywhere in the body is the
  // caller's mistake, named like any other bad parameter, before anything is stored.
  const unstorable = findUnstorable(raw);
  if (unstorable) {
    const param = paramName(unstorable.path);
    throw new InvalidRequest(param ? `Invalid '${param}': ${unstorable.message}` : unstorable.message, param || null);
  }
  const parsed = createBodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = paramName(issue.path);
    throw new InvalidRequest(param ? `Invalid '${param}': ${issue.message}` : issue.message, param || null);
  }
  const body = parsed.data;
  const items =
    typeof body.input === "string" ? [{ role: "user", content: body.input }] : (body.input ?? []).map(withImageDetail);
  let input: HistoryEventInput[];
  try {
    input = items.length
      ? importEvents("OPENAI_RESPONSES", items, ["input"]).map(({ event }) => toEventInput(event))
      : [];
  } catch (error) {
    if (error instanceof ValidationError) throw fromValidation(error);
    throw error;
  }
  const choice = body.tool_choice;
  return {
    body,
    store: body.store ?? true,
    stream: body.stream ?? false,
    background: body.background ?? false,
    conversation: typeof body.conversation === "string" ? body.conversation : (body.conversation?.id ?? null),
    input,
    tools: (body.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: tool.strict,
    })),
    toolChoice: choice == null ? null : typeof choice === "string" ? choice : { name: choice.name },
    echoed: {
      instructions: body.instructions ?? null,
      tools: (body.tools ?? []).map((tool) => ({ description: null, parameters: null, strict: null, ...tool })),
      tool_choice: choice ?? "auto",
      parallel_tool_calls: body.parallel_tool_calls ?? true,
      temperature: body.temperature ?? null,
      top_p: body.top_p ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      max_tool_calls: body.max_tool_calls ?? null,
      reasoning: body.reasoning ?? null,
      text: body.text ?? null,
      truncation: body.truncation ?? "disabled",
      user: body.user ?? null,
      safety_identifier: body.safety_identifier ?? null,
      prompt_cache_key: body.prompt_cache_key ?? null,
      background: body.background ?? false,
      conversation: body.conversation != null,
    },
  };
}

/** The API takes an input_image without `detail` (as `auto`); the stored part says so. */
function withImageDetail(item: unknown) {
  const content = (item as { content?: unknown })?.content;
  if (!Array.isArray(content)) return item;
  return {
    ...(item as object),
    content: content.map((part) =>
      part?.type === "input_image" && part.detail == null ? { ...part, detail: "auto" } : part,
    ),
  };
}

/** ["input", "2", "content"] → "input[2].content", as the API names parameters. */
export function paramName(path: readonly PropertyKey[]) {
  return path.reduce<string>((name, key) => {
    const text = String(key);
    return /^\d+$/.test(text) ? `${name}[${text}]` : name ? `${name}.${text}` : text;
  }, "");
}

export function fromValidation(error: ValidationError) {
  const first = error.fieldErrors[0];
  const path = first?.path ?? [];
  // A tool result's callId is the item's call_id in the API's words.
  const param = paramName(
    path.map((key) => (key === "callId" ? "call_id" : key)).filter((key) => key !== "toolResult"),
  );
  return new InvalidRequest(first ? `Invalid '${param}': ${first.message}` : error.message, param || null);
}

/** An imported event as the write input createResponse takes (parts in chat vocabulary, as stored). */
function toEventInput(event: NewEvent): HistoryEventInput {
  const parts = event.parts ? (event.parts as Part[]).map(toChatPart) : null;
  const message = { content: event.content, parts };
  switch (event.type) {
    case "HUMAN":
      return { human: message };
    case "SYSTEM":
      return { system: message };
    case "AI":
      return { ai: message };
    case "REASONING":
      return { reasoning: { content: event.content ?? "" } };
    case "TOOL_CALL":
      return { toolCall: { callId: event.callId, toolName: event.toolName, args: event.args } };
    case "TOOL_RESULT":
      return {
        toolResult: {
          callId: event.callId,
          toolName: event.toolName,
          content: event.content ?? (parts ? parts.map((part) => part.text ?? "").join("\n") : ""),
        },
      };
  }
}
