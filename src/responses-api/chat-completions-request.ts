// The body of `POST /v1/chat/completions`: every parameter of OpenAI's Chat Completions request is
// either applied — given to the model loop, or forwarded in the upstream's own terms — or refused
// with a 400 naming it (docs/chat-completions.md has the table). A key the API does not have is
// refused as OpenAI refuses it.
import { z } from "zod";
import type { GenerateRequest, ToolChoice } from "../generation/generate-turn.js";
import type { UpstreamKind } from "../generation/providers.js";
import { InvalidRequest, paramName } from "./create-request.js";

const functionTool = z.strictObject({
  type: z.literal("function", { error: "only function tools are supported" }),
  function: z.strictObject({
    name: z.string().min(1).max(64),
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    strict: z.boolean().nullish(),
  }),
});

const toolChoice = z.union([
  z.enum(["auto", "none", "required"]),
  z.strictObject({ type: z.literal("function"), function: z.strictObject({ name: z.string().min(1) }) }),
]);

const responseFormat = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text") }),
  z.strictObject({ type: z.literal("json_object") }),
  z.strictObject({
    type: z.literal("json_schema"),
    json_schema: z.strictObject({
      name: z.string().min(1).max(64),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

const chatBodySchema = z.strictObject({
  model: z.string({ error: "model is required" }).min(1),
  messages: z.array(z.unknown(), { error: "messages is required" }).min(1, "at least one message is required"),
  stream: z.boolean().nullish(),
  stream_options: z
    .strictObject({ include_usage: z.boolean().nullish(), include_obfuscation: z.boolean().nullish() })
    .nullish(),
  store: z.boolean().nullish(),
  metadata: z.record(z.string().max(64), z.string().max(512)).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  seed: z.number().int().nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  tools: z.array(functionTool).nullish(),
  tool_choice: toolChoice.nullish(),
  response_format: responseFormat.nullish(),
  reasoning_effort: z.enum(["none", "minimal", "low", "medium", "high", "xhigh"]).nullish(),
  n: z.literal(1, { error: "only n: 1 is supported (one choice per turn)" }).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  modalities: z.array(z.literal("text", { error: "only the text modality is supported" })).nullish(),
  // Forwarded as they are to an OpenAI-compatible Chat Completions upstream, refused for any other.
  parallel_tool_calls: z.boolean().nullish(),
  user: z.string().nullish(),
  safety_identifier: z.string().nullish(),
  prompt_cache_key: z.string().nullish(),
  prompt_cache_retention: z.string().nullish(),
  service_tier: z.string().nullish(),
  logit_bias: z.record(z.string(), z.number()).nullish(),
  verbosity: z.enum(["low", "medium", "high"]).nullish(),
  prediction: z.looseObject({ type: z.literal("content") }).nullish(),
  // Refused whenever given (dialogql cannot carry what they ask for back to the caller).
  audio: z.null({ error: "audio output is not supported" }).optional(),
  web_search_options: z.null({ error: "web_search_options is not supported" }).optional(),
  functions: z.null({ error: "functions (deprecated) is not supported: use tools" }).optional(),
  function_call: z.null({ error: "function_call (deprecated) is not supported: use tool_choice" }).optional(),
});

export type ChatBody = z.infer<typeof chatBodySchema>;

/** Parameters only an OpenAI-compatible Chat Completions upstream takes as they are. */
const FORWARDED = [
  "parallel_tool_calls",
  "safety_identifier",
  "prompt_cache_key",
  "prompt_cache_retention",
  "service_tier",
  "logit_bias",
  "prediction",
] as const;

export interface ParsedChat {
  body: ChatBody;
  stream: boolean;
  includeUsage: boolean;
  /** Delta chunks carry random padding (`stream_options.include_obfuscation`, true unless false). */
  obfuscate: boolean;
  store: boolean;
}

export function parseChatBody(raw: unknown): ParsedChat {
  const parsed = chatBodySchema.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error.issues[0]!);
  const body = parsed.data;
  if (body.max_tokens != null && body.max_completion_tokens != null) {
    throw new InvalidRequest("Give max_completion_tokens or max_tokens, not both.", "max_tokens");
  }
  if (body.stream_options && !body.stream) {
    throw new InvalidRequest("stream_options is only allowed when stream is true.", "stream_options");
  }
  if (body.top_logprobs != null && !body.logprobs) {
    throw new InvalidRequest("logprobs must be set to true if top_logprobs is used.", "top_logprobs");
  }
  return {
    body,
    stream: body.stream ?? false,
    includeUsage: body.stream_options?.include_usage ?? false,
    obfuscate: body.stream_options?.include_obfuscation ?? true,
    store: body.store ?? true,
  };
}

/** The model loop's settings for the body; a parameter the model's upstream cannot take is a 400 naming it. */
export function chatSettings(body: ChatBody, upstream: UpstreamKind): Omit<GenerateRequest, keyof ChainFields> {
  const openaiChat = upstream === "openai-chat";
  const forwarded: Record<string, unknown> = {};
  for (const name of FORWARDED) {
    if (body[name] == null) continue;
    if (!openaiChat) throw notForUpstream(name, upstream);
    forwarded[name] = body[name];
  }
  if (body.verbosity != null && upstream === "anthropic") throw notForUpstream("verbosity", upstream);
  if (body.reasoning_effort != null && upstream === "anthropic") throw notForUpstream("reasoning_effort", upstream);
  if (body.logprobs && upstream === "anthropic") throw notForUpstream("logprobs", upstream);
  const user = body.user ?? undefined;
  if (user != null && upstream === "anthropic") throw notForUpstream("user", upstream);
  const openaiOptions: Record<string, unknown> = { ...forwarded, user, textVerbosity: body.verbosity ?? undefined };
  // The compatible provider turns a schema into json_object unless told it has structured
  // outputs; the format goes as the caller wrote it, strict flag and all.
  if (openaiChat && body.response_format) openaiOptions.response_format = body.response_format;
  const stop = typeof body.stop === "string" ? [body.stop] : (body.stop ?? undefined);
  return {
    model: body.model,
    metadata: body.metadata ?? {},
    tools: body.tools?.map(({ function: fn }) => fn),
    toolChoice: toolChoiceOf(body.tool_choice),
    temperature: body.temperature,
    topP: body.top_p,
    maxOutputTokens: body.max_completion_tokens ?? body.max_tokens,
    reasoningEffort: body.reasoning_effort,
    settings: defined({
      stopSequences: stop,
      seed: body.seed ?? undefined,
      presencePenalty: body.presence_penalty ?? undefined,
      frequencyPenalty: body.frequency_penalty ?? undefined,
    }),
    // An OpenAI-compatible upstream gets the format as written (above); the others get it in their own terms.
    responseFormat: openaiChat ? null : responseFormatOf(body.response_format),
    // Read from the upstream's chunks and answered in the choice's `logprobs` (chat-completion-object.ts).
    upstream: body.logprobs ? { logprobs: { top: body.top_logprobs ?? 0 } } : undefined,
    providerOptions: { openai: defined(openaiOptions) },
  };
}

type ChainFields = Pick<GenerateRequest, "tenantId" | "dialogId" | "previousResponseId" | "input">;

function toolChoiceOf(choice: ChatBody["tool_choice"]): ToolChoice | null {
  if (choice == null) return null;
  return typeof choice === "string" ? choice : { name: choice.function.name };
}

function responseFormatOf(format: ChatBody["response_format"]): GenerateRequest["responseFormat"] {
  if (!format || format.type === "text") return null;
  if (format.type === "json_object") return { type: "json_object" };
  const { name, description, schema } = format.json_schema;
  // A json_schema format without a schema asks for JSON of any shape.
  if (!schema) return { type: "json_object" };
  return { type: "json_schema", name, description, schema };
}

const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

const notForUpstream = (name: string, upstream: UpstreamKind) =>
  new InvalidRequest(
    `'${name}' is not supported for this model: its upstream speaks ${upstream === "anthropic" ? "Anthropic Messages" : "the OpenAI Responses API"}, which has no such parameter.`,
    name,
  );

function invalid(issue: z.core.$ZodIssue) {
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    const at = paramName([...issue.path, key]);
    return new InvalidRequest(`Unrecognized request argument supplied: ${at}`, at);
  }
  const param = paramName(issue.path);
  return new InvalidRequest(param ? `Invalid '${param}': ${issue.message}` : issue.message, param || null);
}
