// A turn in OpenAI's Chat Completions shapes: the `chat.completion` object, and the
// `chat.completion.chunk` stream (one chunk per delta, the finish reason in the last choice
// chunk, the usage in a chunk of its own when `stream_options.include_usage` asks for it, then
// `[DONE]`). The id of both is the dialogql response id of the turn.
import type { StartedTurn, TurnObserver, TurnOutcome } from "../generation/generate-turn.js";
import type { OutputItem } from "../generation/output-items.js";
import type { TokenLogprob } from "../generation/logprobs.js";
import type { UsageInput } from "../services/responses.js";
import { obfuscationFor } from "./obfuscation.js";

type FunctionCall = Extract<OutputItem, { type: "function_call" }>;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function finishReason(outcome: TurnOutcome) {
  if (outcome.status === "INCOMPLETE") return outcome.error?.code === "content_filter" ? "content_filter" : "length";
  return outcome.output.some((item) => item.type === "function_call") ? "tool_calls" : "stop";
}

export function chatUsage(usage: UsageInput | null) {
  const prompt = usage?.inputTokens ?? 0;
  const completion = usage?.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage?.totalTokens ?? prompt + completion,
    completion_tokens_details: { reasoning_tokens: usage?.reasoningTokens ?? 0 },
  };
}

const toolCall = (item: FunctionCall) => ({
  id: item.callId,
  type: "function" as const,
  function: { name: item.name, arguments: item.arguments },
});

/** A choice's `logprobs`: null unless the request asked for them (`logprobs: true`). */
const choiceLogprobs = (asked: boolean, tokens: TokenLogprob[]) => (asked ? { content: tokens, refusal: null } : null);

export function chatCompletion(turn: StartedTurn, outcome: TurnOutcome, model: string, logprobs = false) {
  const text = outcome.output.map((item) => (item.type === "message" ? item.text : "")).join("");
  const calls = outcome.output.filter((item): item is FunctionCall => item.type === "function_call");
  return {
    id: turn.responseId,
    object: "chat.completion",
    created: seconds(turn.createdAt),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text || (calls.length ? null : ""),
          refusal: null,
          annotations: [],
          ...(calls.length && { tool_calls: calls.map(toolCall) }),
        },
        logprobs: choiceLogprobs(
          logprobs,
          outcome.output.flatMap((item) => (item.type === "message" ? (item.logprobs ?? []) : [])),
        ),
        finish_reason: finishReason(outcome),
      },
    ],
    usage: chatUsage(outcome.usage),
  };
}

export interface ChunkStream extends TurnObserver {
  /** The turn is open: the first chunk (the assistant's role) goes out. */
  begin(turn: StartedTurn): void;
  /** The closing chunks, or the error of a failed turn. */
  end(outcome: TurnOutcome): void;
}

export interface ChunkOptions {
  /** `stream_options.include_usage`: a last chunk with the usage. */
  includeUsage: boolean;
  /** `stream_options.include_obfuscation`: delta chunks carry random padding (obfuscation.ts). */
  obfuscate: boolean;
  /** `logprobs: true`: each content chunk carries its tokens' logprobs. */
  logprobs: boolean;
}

/** The turn's chunks as SSE frames, written to `write` as the model produces them. */
export function chunkStream(write: (frame: string) => void, model: string, options: ChunkOptions): ChunkStream {
  const { includeUsage, obfuscate } = options;
  let base: { id: string; object: string; created: number; model: string } | null = null;
  const pending: string[] = [];
  const sendFrame = (frame: string) => (base ? write(frame) : void pending.push(frame));
  const send = (chunk: object) => sendFrame(`data: ${JSON.stringify(chunk)}\n\n`);
  const choice = (delta: object, finish: string | null = null, logprobs: object | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs, finish_reason: finish }],
    ...(includeUsage && { usage: null }),
  });
  /** A chunk carrying `text` of the answer or a call's arguments, padded when asked. */
  const deltaChunk = (chunk: object, text: string) =>
    obfuscate ? { ...chunk, obfuscation: obfuscationFor(text.length) } : chunk;
  const toolIndex = new Map<string, number>();
  return {
    begin(turn) {
      base = { id: turn.responseId, object: "chat.completion.chunk", created: seconds(turn.createdAt), model };
      write(`data: ${JSON.stringify(choice({ role: "assistant", content: "", refusal: null }))}\n\n`);
      for (const frame of pending.splice(0)) write(frame);
    },
    onItemAdded(item) {
      if (item.type !== "function_call") return;
      toolIndex.set(item.id, toolIndex.size);
      const call = { index: toolIndex.get(item.id), ...toolCall(item), function: { name: item.name, arguments: "" } };
      send(choice({ tool_calls: [call] }));
      // A provider that gives a call whole announces it with its arguments already there.
      if (item.arguments)
        send(choice({ tool_calls: [{ index: toolIndex.get(item.id), function: { arguments: item.arguments } }] }));
    },
    onDelta(item, _index, delta, logprobs) {
      if (item.type === "message") {
        send(deltaChunk(choice({ content: delta }, null, choiceLogprobs(options.logprobs, logprobs ?? [])), delta));
      }
      if (item.type === "function_call") {
        const call = { index: toolIndex.get(item.id), function: { arguments: delta } };
        send(deltaChunk(choice({ tool_calls: [call] }), delta));
      }
    },
    end(outcome) {
      if (outcome.status === "FAILED") {
        const message = `The model upstream failed: ${outcome.error?.message}`;
        send({ error: { message, type: "server_error", param: null, code: "upstream_error" } });
        return;
      }
      send(choice({}, finishReason(outcome)));
      if (includeUsage) send({ ...base, choices: [], usage: chatUsage(outcome.usage) });
      sendFrame("data: [DONE]\n\n");
    },
  };
}
