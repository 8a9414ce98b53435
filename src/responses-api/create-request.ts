// The body of `POST /v1/responses`, checked so that a bad body is a 400 naming the parameter, and
// every parameter is either applied or refused by name (src/responses-api/request-params.ts).
// Input items are read by the Responses format importer (src/formats), the same one
// importMessages uses; `item_reference` items were resolved before (item-references.ts).
import { z } from "zod";
import { ValidationError } from "../errors.js";
import { importEvents } from "../formats/index.js";
import { type Part, toChatPart } from "../vocabulary/parts.js";
import { findUnstorable } from "../vocabulary/storable-text.js";
import type { FunctionTool, ResponseFormat, ToolChoice } from "../generation/generate-turn.js";
import type { AllowedServers } from "../mcp/allowed-servers.js";
import { approvalResponseEvent } from "../mcp/mcp-events.js";
import { echoedMcpTool, extractMcp, McpRequestError, type McpRequest } from "../mcp/mcp-request.js";
import type { HistoryEventInput, NewEvent } from "../vocabulary/events.js";
import type { UpstreamParams } from "../generation/upstream-options.js";
import { InvalidRequest } from "./invalid-request.js";
import {
  includableValues,
  refuseUnhonoured,
  responseFormatOf,
  textConfigSchema,
  upstreamParamsOf,
} from "./request-params.js";

const functionTool = z.looseObject({
  type: z.literal("function", { error: "only function and mcp tools are supported" }),
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
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  max_output_tokens: z.number().int().min(1).nullish(),
  max_tool_calls: z.number().int().min(1).nullish(),
  reasoning: z
    .strictObject({
      effort: z.enum(["minimal", "low", "medium", "high", "none", "xhigh"]).nullish(),
      summary: z.enum(["auto", "concise", "detailed"]).nullish(),
      // The older name of `summary`.
      generate_summary: z.enum(["auto", "concise", "detailed"]).nullish(),
    })
    .nullish(),
  text: textConfigSchema.nullish(),
  truncation: z.enum(["auto", "disabled"]).nullish(),
  include: z.array(z.enum(includableValues)).nullish(),
  user: z.string().nullish(),
  safety_identifier: z.string().nullish(),
  prompt_cache_key: z.string().nullish(),
  prompt_cache_retention: z.enum(["in_memory", "24h"]).nullish(),
  service_tier: z.enum(["auto", "default", "flex", "scale", "priority"]).nullish(),
  stream_options: z.strictObject({ include_obfuscation: z.boolean().nullish() }).nullish(),
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
  top_logprobs: number;
  frequency_penalty: number;
  presence_penalty: number;
  service_tier: string;
  prompt_cache_retention: string | null;
  reasoning: unknown;
  text: unknown;
  truncation: string;
  user: string | null;
  safety_identifier: string | null;
  prompt_cache_key: string | null;
  background: boolean;
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
  /** The `mcp` tools and `mcp_approval_response` items (src/mcp/mcp-request.ts). */
  mcp: McpRequest;
  responseFormat: ResponseFormat | null;
  upstream: UpstreamParams;
  truncate: boolean;
  /** Delta events carry random padding (`stream_options.include_obfuscation`, true unless false). */
  obfuscate: boolean;
  echoed: EchoedParams;
}

export { InvalidRequest };

/** `allowedMcpServers`: MCP_ALLOWED_SERVERS; an `mcp` tool naming any other server is refused. */
export function parseCreateBody(raw: unknown, allowedMcpServers: AllowedServers = []): ParsedCreate {
  const { body, mcp } = validatedBody(raw, allowedMcpServers);
  const choice = body.tool_choice;
  const reasoning = body.reasoning && {
    effort: body.reasoning.effort ?? null,
    summary: body.reasoning.summary ?? body.reasoning.generate_summary ?? null,
  };
  return {
    body,
    store: body.store ?? true,
    stream: body.stream ?? false,
    background: body.background ?? false,
    conversation: typeof body.conversation === "string" ? body.conversation : (body.conversation?.id ?? null),
    input: [...inputEventsOf(body), ...mcp.approvals.map((answer) => approvalResponseEvent(answer, null))],
    mcp,
    tools: (body.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: tool.strict ?? true,
    })),
    toolChoice: choice == null ? null : typeof choice === "string" ? choice : { name: choice.name },
    responseFormat: responseFormatOf(body.text),
    upstream: upstreamParamsOf({ ...body, reasoning }),
    truncate: body.truncation === "auto",
    obfuscate: body.stream_options?.include_obfuscation ?? true,
    echoed: echoedParamsOf(body, mcp, reasoning ?? null),
  };
}

/**
 * The body checked against the schema, its `mcp` tools and approvals taken out (src/mcp/mcp-request.ts);
 * anything refused is an InvalidRequest naming its parameter.
 */
function validatedBody(raw: unknown, allowedMcpServers: AllowedServers): { body: CreateBody; mcp: McpRequest } {
  // Text PostgreSQL cannot store (a NUL, an unpaired surrogate) anywhere in the body is the
  // caller's mistake, named like any other bad parameter, before anything is stored.
  const unstorable = findUnstorable(raw);
  if (unstorable) {
    const param = paramName(unstorable.path);
    throw new InvalidRequest(param ? `Invalid '${param}': ${unstorable.message}` : unstorable.message, param || null);
  }
  let mcp: McpRequest;
  try {
    ({ body: raw, mcp } = extractMcp(raw, allowedMcpServers));
  } catch (error) {
    if (error instanceof McpRequestError) throw new InvalidRequest(error.message, error.param);
    throw error;
  }
  refuseUnhonoured(raw);
  const parsed = createBodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = paramName(issue.path);
    throw new InvalidRequest(param ? `Invalid '${param}': ${issue.message}` : issue.message, param || null);
  }
  return { body: parsed.data, mcp };
}

/** `input` (a string is one user message) as the events it stores. */
function inputEventsOf(body: CreateBody): HistoryEventInput[] {
  const items =
    typeof body.input === "string" ? [{ role: "user", content: body.input }] : (body.input ?? []).map(withImageDetail);
  if (!items.length) return [];
  try {
    return importEvents("OPENAI_RESPONSES", items, ["input"]).map(({ event }) => toEventInput(event));
  } catch (error) {
    if (error instanceof ValidationError) throw fromValidation(error);
    throw error;
  }
}

/** The request's parameters as the response object echoes them, each with the API's default. */
function echoedParamsOf(body: CreateBody, mcp: McpRequest, reasoning: EchoedParams["reasoning"]): EchoedParams {
  return {
    instructions: body.instructions ?? null,
    // The spec's default for a function tool is strict, and that is what the model is given.
    tools: [
      ...(body.tools ?? []).map((tool) => ({
        description: null,
        parameters: null,
        ...tool,
        strict: tool.strict ?? true,
      })),
      ...mcp.servers.map(echoedMcpTool),
    ],
    tool_choice: body.tool_choice ?? "auto",
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: body.max_tool_calls ?? null,
    top_logprobs: body.top_logprobs ?? 0,
    frequency_penalty: body.frequency_penalty ?? 0,
    presence_penalty: body.presence_penalty ?? 0,
    service_tier: body.service_tier ?? "default",
    prompt_cache_retention: body.prompt_cache_retention ?? null,
    reasoning,
    text: body.text
      ? { format: body.text.format ?? { type: "text" }, verbosity: body.text.verbosity ?? "medium" }
      : null,
    truncation: body.truncation ?? "disabled",
    user: body.user ?? null,
    safety_identifier: body.safety_identifier ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    background: body.background ?? false,
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
export function toEventInput(event: NewEvent): HistoryEventInput {
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
      // Encrypted content or a signature goes back to the upstream with the reasoning (model-messages.ts).
      return { reasoning: { content: event.content ?? "", providerFields: event.providerFields } };
    case "TOOL_CALL":
      return { toolCall: { callId: event.callId, toolName: event.toolName, args: event.args } };
    case "TOOL_RESULT":
      return {
        toolResult: {
          callId: event.callId,
          toolName: event.toolName,
          content: event.content ?? (parts ? parts.map((part) => part.text ?? "").join("\n") : ""),
          isError: event.isError,
        },
      };
  }
}
