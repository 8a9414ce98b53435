// The request parameters a turn forwards to its model, in each upstream's own terms: the Responses
// provider's options (camelCase, the AI SDK maps them to its body), Chat Completions body fields
// (the compatible provider passes unknown option keys through as they are), Anthropic's options.
// A parameter the upstream has no equivalent for is refused by name (a ValidationError, a 400 at
// /v1) rather than dropped: nothing is accepted without being applied.
import type { LanguageModel } from "ai";
import type { JSONObject } from "@ai-sdk/provider";
import { ValidationError } from "../errors.js";
import type { LogprobsRequest } from "./logprobs.js";
import { dropsSampling } from "./reasoning-models.js";

/** Parameters beyond the AI SDK's common call settings; null or undefined: not given. */
export interface UpstreamParams {
  parallelToolCalls?: boolean | null;
  promptCacheKey?: string | null;
  promptCacheRetention?: string | null;
  serviceTier?: string | null;
  user?: string | null;
  safetyIdentifier?: string | null;
  /** Token logprobs of the answer (`include: ["message.output_text.logprobs"]`, `top_logprobs`, Chat's `logprobs`). */
  logprobs?: LogprobsRequest | null;
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
          // The provider's `logprobs` option sets top_logprobs (1 to 20); logprobs without
          // alternatives is the include alone. The tokens are read from the raw chunks (logprobs.ts).
          logprobs: params.logprobs?.top || null,
          reasoningEffort: params.reasoningEffort,
          reasoningSummary: params.reasoningSummary,
          textVerbosity: params.textVerbosity,
          strictJsonSchema: params.strictJsonSchema ?? false,
          include: responsesInclude(params),
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
          logprobs: params.logprobs ? true : null,
          top_logprobs: params.logprobs?.top || null,
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
              "logprobs",
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

/** The call settings a request may give that some upstream's provider would drop with only a warning. */
export interface DroppableSettings {
  temperature?: number | null;
  topP?: number | null;
  frequencyPenalty?: number | null;
  presencePenalty?: number | null;
  settings?: {
    frequencyPenalty?: number;
    presencePenalty?: number;
    seed?: number;
    stopSequences?: string[];
    topK?: number;
  };
  providerOptions?: Record<string, Record<string, unknown>>;
  upstream?: UpstreamParams | null;
}

/** The API names of what each upstream has no parameter for (the AI SDK's providers drop them). */
const droppedBy: Record<ProviderKind, string[]> = {
  responses: ["frequency_penalty", "presence_penalty", "seed", "stop"],
  anthropic: ["frequency_penalty", "presence_penalty", "seed"],
  chat: [],
};

/** Throws for a setting the model's upstream has no parameter for, instead of letting its provider drop it. */
export function refuseDroppedSettings(model: LanguageModel, request: DroppableSettings) {
  const given: Record<string, unknown> = {
    // A penalty of 0 is no penalty: nothing is lost without it.
    frequency_penalty: (request.frequencyPenalty ?? request.settings?.frequencyPenalty) || null,
    presence_penalty: (request.presencePenalty ?? request.settings?.presencePenalty) || null,
    seed: request.settings?.seed,
    stop: request.settings?.stopSequences?.length ? request.settings.stopSequences : null,
  };
  const kind = kindOf(model);
  const upstream = kind === "anthropic" ? "Anthropic" : "the OpenAI Responses API";
  const problems = droppedBy[kind]
    .filter((name) => given[name] != null)
    .map((name) => ({
      path: [name],
      message: `${upstream} has no equivalent of ${name === "stop" ? "stop sequences" : name}; leave it out for this model`,
    }));
  if (kind === "anthropic") problems.push(...anthropicSampling(request));
  if (kind === "responses") problems.push(...reasoningModelSampling(model, request));
  if (problems.length) throw new ValidationError(problems);
}

/** Sampling settings Anthropic's provider would clamp or drop: refused as Anthropic's API refuses them. */
function anthropicSampling({ temperature, topP, settings, providerOptions }: DroppableSettings) {
  const problems: { path: string[]; message: string }[] = [];
  if (temperature != null && temperature > 1) {
    problems.push({ path: ["temperature"], message: "Anthropic takes a temperature from 0 to 1" });
  }
  if (providerOptions?.anthropic?.thinking != null) {
    const given = { temperature, top_p: topP, top_k: settings?.topK };
    for (const [name, value] of Object.entries(given)) {
      if (value != null) problems.push({ path: [name], message: `Anthropic takes no ${name} with thinking enabled` });
    }
  } else if (temperature != null && topP != null) {
    problems.push({ path: ["top_p"], message: "Anthropic takes temperature or top_p, not both" });
  }
  return problems;
}

/** Temperature and top_p for a model the Responses provider treats as a reasoning model: refused, as OpenAI refuses them. */
function reasoningModelSampling(
  model: LanguageModel,
  { temperature, topP, upstream, providerOptions }: DroppableSettings,
) {
  const modelId = typeof model === "string" ? model : model.modelId;
  const openai = providerOptions?.openai;
  const effort = upstream?.reasoningEffort ?? openai?.reasoningEffort;
  if (!dropsSampling(modelId, effort, openai?.forceReasoning)) return [];
  return Object.entries({ temperature, top_p: topP })
    .filter(([, value]) => value != null)
    .map(([name]) => ({
      path: [name],
      message: `${name} is not supported with the reasoning model ${modelId}; leave it out`,
    }));
}

/** What a Responses upstream is asked to include beside its output. */
function responsesInclude(params: UpstreamParams) {
  const include = [
    // With alternatives the provider adds it itself (its `logprobs` option).
    ...(params.logprobs && !params.logprobs.top ? ["message.output_text.logprobs"] : []),
    ...(params.encryptedReasoning ? ["reasoning.encrypted_content"] : []),
  ];
  return include.length ? include : null;
}

/** The API's names of the parameters, for the refusal. */
const apiNames: Record<keyof UpstreamParams, string> = {
  parallelToolCalls: "parallel_tool_calls",
  promptCacheKey: "prompt_cache_key",
  promptCacheRetention: "prompt_cache_retention",
  serviceTier: "service_tier",
  user: "user",
  safetyIdentifier: "safety_identifier",
  logprobs: "top_logprobs",
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

/** The AI SDK's other call settings, as a request gives them (stop sequences, seed, penalties, top-k). */
export interface UpstreamSettings {
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  topK?: number;
}
