// One model call, made on the provider's model itself (its LanguageModelV3 `doStream`) rather than
// through streamText. streamText puts every upstream chunk through a dozen web-stream stages
// (its tool transformation, step bookkeeping, stitchable stream, output parsing, telemetry) before
// the step sees it: about a third of a generated turn's CPU (docs/performance.md, issue 27). The
// step follows the provider's own stream parts instead (model-step.ts), and the call is prepared
// here by the AI SDK's own functions, as streamText prepares it: the prompt converted once
// (convertToLanguageModelPrompt, without checking the whole history against the message schema:
// the messages are dialogql's own, built from stored events), the tools and tool choice, the call
// settings checked, the same retries of the call (backoff, retry-after headers, RetryError).
import type { LanguageModel, ModelMessage, streamText, ToolSet } from "ai";
import {
  convertToLanguageModelPrompt,
  prepareCallSettings,
  prepareRetries,
  prepareToolsAndToolChoice,
} from "ai/internal";
import type { UpstreamSettings } from "./upstream-options.js";

/** A provider's model of the AI SDK 6 specification (every model the catalog makes is one). */
export type ModelV3 = Extract<LanguageModel, { specificationVersion: "v3" }>;
type CallOptions = Parameters<ModelV3["doStream"]>[0];
type StreamOf<M extends ModelV3> = Awaited<ReturnType<M["doStream"]>>["stream"];
/** A part of the provider's stream (LanguageModelV3StreamPart). */
export type ProviderPart = StreamOf<ModelV3> extends ReadableStream<infer P> ? P : never;
type StreamTextOptions = Parameters<typeof streamText>[0];

/** What a call is made of (model-step.ts's StepRequest gives it). */
export interface ProviderCall {
  model: ModelV3;
  system: string | undefined;
  messages: ModelMessage[];
  tools: ToolSet | undefined;
  toolChoice: StreamTextOptions["toolChoice"];
  temperature: number | undefined;
  topP: number | undefined;
  maxOutputTokens: number | undefined;
  frequencyPenalty: number | undefined;
  presencePenalty: number | undefined;
  settings: UpstreamSettings | undefined;
  output: StreamTextOptions["output"];
  maxRetries: number;
  abort: AbortSignal;
  providerOptions: StreamTextOptions["providerOptions"];
  /** Whether the provider's raw chunks are wanted too (logprobs are read from them). */
  rawChunks: boolean;
}

/** Calls the model (retried as streamText retries it); its stream of parts, or the call's error. */
export async function callProvider(call: ProviderCall): Promise<ReadableStream<ProviderPart>> {
  const { model, abort } = call;
  // Both check their arguments and throw as streamText would (InvalidArgumentError).
  const { retry } = prepareRetries({ maxRetries: call.maxRetries, abortSignal: abort });
  const settings = prepareCallSettings({
    temperature: call.temperature,
    topP: call.topP,
    maxOutputTokens: call.maxOutputTokens,
    frequencyPenalty: call.frequencyPenalty,
    presencePenalty: call.presencePenalty,
    ...call.settings,
  });
  const prompt = await convertToLanguageModelPrompt({
    prompt: { system: call.system, messages: call.messages },
    supportedUrls: await model.supportedUrls,
    download: undefined,
    abortSignal: abort,
  });
  const { tools, toolChoice } = await prepareToolsAndToolChoice({
    tools: call.tools,
    toolChoice: call.toolChoice,
    activeTools: undefined,
  });
  const options: CallOptions = {
    ...settings,
    tools,
    toolChoice,
    responseFormat: await call.output?.responseFormat,
    prompt,
    providerOptions: call.providerOptions as CallOptions["providerOptions"],
    abortSignal: abort,
    includeRawChunks: call.rawChunks,
  };
  const { stream } = await retry(() => model.doStream(options));
  return stream;
}

/**
 * A tool call's arguments when the provider sent the call whole (no input streamed first), as
 * streamText gave them: its input parsed and written again, `{}` for none, and an input that is
 * not JSON as a JSON string.
 */
export function wholeCallArguments(input: string): string {
  if (!input.trim()) return "{}";
  try {
    return JSON.stringify(JSON.parse(input) ?? {});
  } catch {
    return JSON.stringify(input);
  }
}
