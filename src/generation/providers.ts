// Which model a name means: the providers configured by environment (OPENAI_API_KEY +
// OPENAI_BASE_URL for any OpenAI-compatible server, ANTHROPIC_API_KEY for claude-*), reached
// through the Vercel AI SDK's providers so that no provider's HTTP protocol is written here.
// MODEL_PROVIDERS maps names to providers (`glob=provider`, first match wins); without it,
// claude-* goes to Anthropic when its key is set and every other name to the OpenAI-compatible
// server when one is configured.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ModelV3 } from "./provider-stream.js";
import type { Config } from "../config.js";
import { AppError } from "../errors.js";

export type ProviderSettings = Pick<
  Config,
  | "OPENAI_API_KEY"
  | "OPENAI_BASE_URL"
  | "UPSTREAM_API"
  | "ANTHROPIC_API_KEY"
  | "ANTHROPIC_BASE_URL"
  | "MODEL_PROVIDERS"
  | "DEFAULT_MODEL"
  | "MODELS"
  | "UPSTREAM_MAX_RETRIES"
> &
  Partial<Pick<Config, "MODEL_CONTEXT_TOKENS">>;

const providerNames = ["openai", "anthropic"] as const;
type ProviderName = (typeof providerNames)[number];

/** A model name no configured provider serves. */
export class ModelNotConfiguredError extends AppError {
  readonly code = "MODEL_NOT_CONFIGURED";
  constructor(model: string, reason: string) {
    super(
      `No provider is configured for model "${model}": ${reason}. Set OPENAI_API_KEY and/or OPENAI_BASE_URL ` +
        `(any OpenAI-compatible server), ANTHROPIC_API_KEY (claude-*), or MODEL_PROVIDERS to map model names to providers.`,
      { extensions: { code: "MODEL_NOT_CONFIGURED" } },
    );
  }
}

export interface ModelCatalog {
  /** Whether any provider is configured (the viewer offers its composer only then). */
  readonly configured: boolean;
  /** The model the viewer proposes; null when none is configured. */
  readonly defaultModel: string | null;
  readonly maxRetries: number;
  /** The context window `truncation: "auto"` fits a turn's context to (MODEL_CONTEXT_TOKENS). */
  readonly contextTokens: number;
  /** The model for `name`, or a ModelNotConfiguredError. */
  resolve(name: string): ModelV3;
  /** Which API the model's upstream speaks (what a request may forward to it), or a ModelNotConfiguredError. */
  upstreamOf(name: string): UpstreamKind;
  /** The models to list (GET /v1/models): MODELS, or DEFAULT_MODEL and the names MODEL_PROVIDERS spells out. */
  readonly listed: readonly ListedModel[];
}

/** The API a model's upstream speaks: OpenAI Chat Completions, OpenAI Responses, or Anthropic Messages. */
export type UpstreamKind = "openai-chat" | "openai-responses" | "anthropic";

export interface ListedModel {
  id: string;
  /** The provider that serves it. */
  ownedBy: ProviderName;
  /** When the catalog was made (Unix seconds): dialogql does not know when a model was published. */
  created: number;
}

interface Rule {
  pattern: RegExp;
  provider: ProviderName;
  /** The glob as written: a name with no `*` is a model name. */
  glob: string;
}

export function createModelCatalog(settings: ProviderSettings): ModelCatalog {
  const factories = providerFactories(settings);
  const rules = settings.MODEL_PROVIDERS ? parseRules(settings.MODEL_PROVIDERS) : defaultRules(factories);
  const configured = Object.keys(factories).length > 0;
  const defaultModel = settings.DEFAULT_MODEL ?? (configured ? defaultModelOf(factories) : null);
  const providerOf = (name: string) => {
    const rule = rules.find((candidate) => candidate.pattern.test(name));
    if (!rule) throw new ModelNotConfiguredError(name, "no MODEL_PROVIDERS rule matches it");
    if (!factories[rule.provider]) {
      throw new ModelNotConfiguredError(name, `the ${rule.provider} provider has no key or URL set`);
    }
    return rule.provider;
  };
  const created = Math.floor(Date.now() / 1000);
  const names = settings.MODELS
    ? settings.MODELS.split(",").map((name) => name.trim())
    : [defaultModel, ...rules.map((rule) => rule.glob).filter((glob) => !glob.includes("*"))];
  const listed = [...new Set(names.filter((name): name is string => Boolean(name)))].flatMap((id) => {
    try {
      return [{ id, ownedBy: providerOf(id), created }];
    } catch {
      return []; // a name no configured provider serves is not offered
    }
  });
  return {
    configured,
    defaultModel,
    maxRetries: settings.UPSTREAM_MAX_RETRIES,
    contextTokens: settings.MODEL_CONTEXT_TOKENS ?? 128_000,
    resolve: keptModels((name) => factories[providerOf(name)]!(name)),
    upstreamOf(name) {
      if (providerOf(name) === "anthropic") return "anthropic";
      return settings.UPSTREAM_API === "responses" ? "openai-responses" : "openai-chat";
    },
    listed,
  };
}

type Factory = (model: string) => ModelV3;

/** How many models a catalog keeps made (names are the requests' own, so the map is bounded). */
const KEPT_MODELS = 256;

/**
 * The model for a name, made once: a provider's model holds its settings only, and making one
 * builds its stream's chunk schema anew, which zod then compiles again on its first chunk (about
 * 1 ms of CPU a turn, and a fresh schema for every turn's chunks: docs/performance.md, issue 27).
 */
function keptModels(make: Factory): Factory {
  const made = new Map<string, ModelV3>();
  return (name) => {
    const kept = made.get(name);
    if (kept) return kept;
    const model = make(name);
    if (made.size >= KEPT_MODELS) made.delete(made.keys().next().value!);
    made.set(name, model);
    return model;
  };
}

function providerFactories(settings: ProviderSettings): Partial<Record<ProviderName, Factory>> {
  const factories: Partial<Record<ProviderName, Factory>> = {};
  if (settings.OPENAI_API_KEY || settings.OPENAI_BASE_URL) {
    const baseURL = settings.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
    // Local servers (Ollama, llama.cpp) take any key; the SDKs insist on one.
    const apiKey = settings.OPENAI_API_KEY ?? "unused";
    if (settings.UPSTREAM_API === "responses") {
      const openai = createOpenAI({ baseURL, apiKey });
      factories.openai = (model) => openai.responses(model);
    } else {
      // The compatible provider reads `reasoning_content` (vLLM, DeepSeek, llama.cpp) as reasoning.
      // Image URLs go to the upstream as they are, as OpenAI's own provider sends them: Chat
      // Completions takes them in `image_url`, and dialogql fetching arbitrary client-given URLs
      // itself would be slow, fail behind firewalls, and reach hosts the client cannot (SSRF).
      const compatible = createOpenAICompatible({
        name: "openai",
        baseURL,
        apiKey,
        includeUsage: true,
        // text.format json_schema goes out as response_format json_schema (OpenAI, vLLM, llama.cpp, Ollama take it).
        supportsStructuredOutputs: true,
        supportedUrls: () => ({ "image/*": [/^https?:\/\/.*$/] }),
      });
      factories.openai = (model) => compatible.chatModel(model);
    }
  }
  if (settings.ANTHROPIC_API_KEY) {
    const anthropic = createAnthropic({ apiKey: settings.ANTHROPIC_API_KEY, baseURL: settings.ANTHROPIC_BASE_URL });
    factories.anthropic = (model) => anthropic(model);
  }
  return factories;
}

function defaultRules(factories: Partial<Record<ProviderName, Factory>>): Rule[] {
  const rules: Rule[] = [];
  if (factories.anthropic) rules.push({ pattern: globToRegExp("claude-*"), provider: "anthropic", glob: "claude-*" });
  if (factories.openai) rules.push({ pattern: globToRegExp("*"), provider: "openai", glob: "*" });
  return rules;
}

function defaultModelOf(factories: Partial<Record<ProviderName, Factory>>) {
  return factories.openai ? "gpt-4o-mini" : "claude-sonnet-4-5";
}

/** "claude-*=anthropic, *=openai" → rules; a malformed pair is a start-up error, not a silent skip. */
export function parseRules(text: string): Rule[] {
  return text
    .split(",")
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const [glob, provider] = pair.split("=").map((part) => part.trim());
      if (!glob || !providerNames.includes(provider as ProviderName)) {
        throw new Error(
          `MODEL_PROVIDERS: "${pair}" is not glob=provider with provider one of ${providerNames.join(", ")}`,
        );
      }
      return { pattern: globToRegExp(glob), provider: provider as ProviderName, glob };
    });
}

const globToRegExp = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);

/** The start-up log's line on models: which providers answer, and the model the viewer proposes. */
export function describeModels(models: Pick<ModelCatalog, "configured" | "defaultModel">, settings: ProviderSettings) {
  if (!models.configured) {
    return "models: none configured (set OPENAI_API_KEY and/or OPENAI_BASE_URL, or ANTHROPIC_API_KEY); the viewer writes turns by hand";
  }
  const providers = [
    (settings.OPENAI_API_KEY || settings.OPENAI_BASE_URL) &&
      `OpenAI-compatible at ${settings.OPENAI_BASE_URL ?? "https://api.openai.com/v1"} (${settings.UPSTREAM_API === "responses" ? "Responses" : "Chat Completions"} API)`,
    settings.ANTHROPIC_API_KEY && `Anthropic${settings.ANTHROPIC_BASE_URL ? ` at ${settings.ANTHROPIC_BASE_URL}` : ""}`,
  ].filter(Boolean);
  const rules = settings.MODEL_PROVIDERS ? `; MODEL_PROVIDERS ${settings.MODEL_PROVIDERS}` : "";
  return `models: ${providers.join(" and ")}${rules}; default model ${models.defaultModel}`;
}
