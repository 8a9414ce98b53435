// What `POST /v1/responses` does with each request parameter beyond the conversation itself
// (docs/responses-api.md has the table): structured output (`text.format`), the parameters
// forwarded to the upstream in its own terms, and the ones dialogql cannot honour, which are a
// 400 naming them — never accepted and ignored. A parameter the spec does not define is a 400 too,
// as OpenAI answers ("Unknown parameter").
import { z } from "zod";
import type { ResponseFormat } from "../generation/generate-turn.js";
import type { UpstreamParams } from "../generation/upstream-options.js";
import { InvalidRequest } from "./invalid-request.js";

/** Every parameter of the spec's CreateResponse body that this server reads. */
export const knownParams = new Set([
  "model",
  "input",
  "instructions",
  "previous_response_id",
  "conversation",
  "store",
  "background",
  "stream",
  "stream_options",
  "metadata",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "temperature",
  "top_p",
  "top_logprobs",
  "frequency_penalty",
  "presence_penalty",
  "max_output_tokens",
  "max_tool_calls",
  "reasoning",
  "text",
  "truncation",
  "include",
  "user",
  "safety_identifier",
  "prompt_cache_key",
  "prompt_cache_retention",
  "service_tier",
]);

/** Parameters of the spec dialogql cannot honour: given (not null), they are refused. */
const refusedParams: Record<string, string> = {
  prompt: "stored prompt templates are not available on this server; send instructions and input instead",
  context_management:
    "server-side context management is not available; use truncation: 'auto' or /v1/responses/compact",
  prompt_cache_options: "not available on this server",
  access_programs: "not available on this server",
  image: "image generation is not available on this server",
  moderation: "not available on this server",
};

/** A 400 for the first parameter the spec does not define or dialogql cannot honour. */
export function refuseUnhonoured(raw: unknown) {
  if (!raw || typeof raw !== "object") return;
  for (const [key, value] of Object.entries(raw)) {
    if (key in refusedParams) {
      if (value != null) throw new InvalidRequest(`Unsupported parameter '${key}': ${refusedParams[key]}.`, key);
    } else if (!knownParams.has(key)) {
      throw new InvalidRequest(`Unknown parameter: '${key}'.`, key);
    }
  }
}

export const textConfigSchema = z.strictObject({
  format: z
    .discriminatedUnion("type", [
      z.strictObject({ type: z.literal("text") }),
      z.strictObject({ type: z.literal("json_object") }),
      z.strictObject({
        type: z.literal("json_schema"),
        name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "a-z, A-Z, 0-9, _ and -, at most 64"),
        schema: z.record(z.string(), z.unknown()),
        description: z.string().nullish(),
        strict: z.boolean().nullish(),
      }),
    ])
    .nullish(),
  verbosity: z.enum(["low", "medium", "high"]).nullish(),
});

export type TextConfig = z.infer<typeof textConfigSchema>;

export const includableValues = [
  "message.output_text.logprobs",
  "reasoning.encrypted_content",
  // Outputs of built-in tools: dialogql offers none, so there is never anything to include.
  "web_search_call.action.sources",
  "web_search_call.results",
  "file_search_call.results",
  "code_interpreter_call.outputs",
  "computer_call_output.output.image_url",
  "message.input_image.image_url",
] as const;

export function responseFormatOf(text: TextConfig | null | undefined): ResponseFormat | null {
  const format = text?.format;
  if (!format || format.type === "text") return null;
  if (format.type === "json_object") return { type: "json_object" };
  return { type: "json_schema", name: format.name, schema: format.schema, description: format.description };
}

interface ForwardedFields {
  parallel_tool_calls?: boolean | null;
  prompt_cache_key?: string | null;
  prompt_cache_retention?: string | null;
  service_tier?: string | null;
  user?: string | null;
  safety_identifier?: string | null;
  top_logprobs?: number | null;
  include?: readonly string[] | null;
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  text?: TextConfig | null;
}

export function upstreamParamsOf(body: ForwardedFields): UpstreamParams {
  const include = new Set(body.include ?? []);
  const format = body.text?.format;
  return {
    parallelToolCalls: body.parallel_tool_calls,
    promptCacheKey: body.prompt_cache_key,
    promptCacheRetention: body.prompt_cache_retention,
    // "auto" and "default" are what every upstream does unasked.
    serviceTier: body.service_tier === "auto" || body.service_tier === "default" ? null : body.service_tier,
    user: body.user,
    safetyIdentifier: body.safety_identifier,
    // OpenAI gives logprobs when `include` asks for them; top_logprobs says how many alternatives each.
    logprobs: include.has("message.output_text.logprobs") || body.top_logprobs ? { top: body.top_logprobs ?? 0 } : null,
    reasoningEffort: body.reasoning?.effort,
    reasoningSummary: body.reasoning?.summary,
    textVerbosity: body.text?.verbosity,
    strictJsonSchema: format?.type === "json_schema" ? (format.strict ?? false) : null,
    encryptedReasoning: include.has("reasoning.encrypted_content"),
  };
}
