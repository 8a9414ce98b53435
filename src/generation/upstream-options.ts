// The request parameters a turn forwards to its model, in each upstream's own terms: the Responses
// provider's options (camelCase, the AI SDK maps them to its body), Chat Completions body fields
// (the compatible provider passes unknown option keys through as they are), Anthropic's options.
// A parameter the upstream has no equivalent for is refused by name (a ValidationError, a 400 at
// /v1) rather than dropped: nothing is accepted without being applied.
import type { LanguageModel } from "ai";
import type { JSONObject } from "@ai-sdk/provider";
import { ValidationError } from "../errors.js";

/** Parameters beyond the AI SDK's common call settings; null or undefined: not given. */
export interface UpstreamParams {
  parallelToolCalls?: boolean | null;
  promptCacheKey?: string | null;
  promptCacheRetention?: string | null;
  serviceTier?: string | null;
  user?: string | null;
  safetyIdentifier?: string | null;
  /** top_logprobs, or 0 when only `include: ["message.output_text.logprobs"]` asked for logprobs. */
  topLogprobs?: number | null;
  reasoningEffort?: string | null;
  reasoningSummary?: string | null;
  textVerbosity?: string | null;
  /** `strict` of a json_schema text format (the API's default: false). */
  strictJsonSchema?: boolean | null;
  /** `include: ["reasoning.encrypted_content"]`. */
  encryptedReasoning?: boolean;
}

type ProviderKind = "responses" | "chat" | "anthropic";

function kindOf(model: LanguageModel): ProviderKind {
  const provider = typeof model === "string" ? model : model.provider;
  if (provider.startsWith("anthropic")) return "anthropic";
  return provider.endsWith(".responses") ? "responses" : "chat";
}

const defined = (entries: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value != null)) as JSONObject;

/** The providerOptions of a turn's streamText call. */
export function upstreamOptions(model: LanguageModel, params: UpstreamParams): Record<string, JSONObject> {
  switch (kindOf(model)) {
    case "responses":
      return {
        openai: defined({
          parallelToolCalls: params.parallelToolCalls,
          promptCacheKey: params.promptCacheKey,
          promptCacheRetention: params.promptCacheRetention,
          serviceTier: params.serviceTier,
          user: params.user,
          safetyIdentifier: params.safetyIdentifier,
          logprobs: params.topLogprobs == null ? null : params.topLogprobs || true,
          reasoningEffort: params.reasoningEffort,
          reasoningSummary: params.reasoningSummary,
          textVerbosity: params.textVerbosity,
          strictJsonSchema: params.strictJsonSchema ?? false,
          include: params.encryptedReasoning ? ["reasoning.encrypted_content"] : null,
        }),
      };
    case "chat":
      return {
        openai: defined({
          // Known to the compatible provider (it maps them itself):
          reasoningEffort: params.reasoningEffort,
          textVerbosity: params.textVerbosity,
          strictJsonSchema: params.strictJsonSchema ?? false,
          user: params.user ?? params.safetyIdentifier,
          // Passed through as Chat Completions body fields:
          parallel_tool_calls: params.parallelToolCalls,
          prompt_cache_key: params.promptCacheKey,
          prompt_cache_retention: params.promptCacheRetention,
          service_tier: params.serviceTier,
          safety_identifier: params.safetyIdentifier,
          logprobs: params.topLogprobs == null ? null : true,
          top_logprobs: params.topLogprobs || null,
          ...refused(params, ["encryptedReasoning"], "a Chat Completions upstream"),
        }),
      };
    case "anthropic":
      return {
        anthropic: defined({
          disableParallelToolUse: params.parallelToolCalls === false ? true : null,
          ...refused(
            params,
            [
              "promptCacheKey",
              "promptCacheRetention",
              "serviceTier",
              "user",
              "safetyIdentifier",
              "topLogprobs",
              "reasoningEffort",
              "textVerbosity",
              "encryptedReasoning",
            ],
            "Anthropic",
          ),
        }),
      };
  }
}

/** The API's names of the parameters, for the refusal. */
const apiNames: Record<keyof UpstreamParams, string> = {
  parallelToolCalls: "parallel_tool_calls",
  promptCacheKey: "prompt_cache_key",
  promptCacheRetention: "prompt_cache_retention",
  serviceTier: "service_tier",
  user: "user",
  safetyIdentifier: "safety_identifier",
  topLogprobs: "top_logprobs",
  reasoningEffort: "reasoning.effort",
  reasoningSummary: "reasoning.summary",
  textVerbosity: "text.verbosity",
  strictJsonSchema: "text.format.strict",
  encryptedReasoning: "include",
};

/** Throws when any of `names` is given: the upstream has nothing to apply it with. */
function refused(params: UpstreamParams, names: (keyof UpstreamParams)[], upstream: string) {
  const given = names.filter((name) => params[name] != null && params[name] !== false);
  if (given.length) {
    throw new ValidationError(
      given.map((name) => ({
        path: apiNames[name].split("."),
        message: `${upstream} has no equivalent of ${apiNames[name]}; leave it out for this model`,
      })),
    );
  }
  return {};
}
