// A turn in Anthropic's Messages shapes: the `message` object, and its server-sent events
// (`message_start`, then per content block `content_block_start`, `content_block_delta`…,
// `content_block_stop`, then `message_delta` with the stop reason and usage, and `message_stop`).
// Text is a `text` block, a tool call a `tool_use` block, the model's reasoning a `thinking` block
// with its signature when the request asked for thinking (only an Anthropic upstream takes
// `thinking`, and it signs what it thinks). A stop at one of `stop_sequences` is `stop_sequence`
// with the sequence, as the upstream reports it. The id is the dialogql response id of the turn.
import type { StartedTurn, TurnObserver, TurnOutcome } from "../generation/generate-turn.js";
import type { OutputItem } from "../generation/output-items.js";
import type { UsageInput } from "../services/responses.js";

type FunctionCall = Extract<OutputItem, { type: "function_call" }>;

export function stopReason(outcome: TurnOutcome) {
  if (outcome.status === "INCOMPLETE") return outcome.error?.code === "content_filter" ? "refusal" : "max_tokens";
  if (outcome.output.some((item) => item.type === "function_call")) return "tool_use";
  return outcome.stopSequence ? "stop_sequence" : "end_turn";
}

const stopFields = (outcome: TurnOutcome) => ({
  stop_reason: stopReason(outcome),
  stop_sequence: stopReason(outcome) === "stop_sequence" ? outcome.stopSequence! : null,
});

const usageOf = (usage: UsageInput | null) => ({
  input_tokens: usage?.inputTokens ?? 0,
  output_tokens: usage?.outputTokens ?? 0,
  cache_creation_input_tokens: null,
  cache_read_input_tokens: null,
});

/** Arguments as the model wrote them, as the object Anthropic's `input` is. */
function inputOf(item: FunctionCall): Record<string, unknown> {
  try {
    const value = JSON.parse(item.arguments || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : { raw: item.arguments };
  } catch {
    return { raw: item.arguments };
  }
}

/** The block an item is; `thinking`: the request asked for thinking, so reasoning is answered. */
function block(item: OutputItem, thinking: boolean) {
  if (item.type === "message") return { type: "text", text: item.text };
  if (item.type === "reasoning" && thinking) {
    return { type: "thinking", thinking: item.text, signature: item.signature ?? "" };
  }
  if (item.type === "function_call")
    return { type: "tool_use", id: item.callId, name: item.name, input: inputOf(item) };
  return null;
}

const messageHead = (turn: StartedTurn, model: string) => ({
  id: turn.responseId,
  type: "message",
  role: "assistant",
  model,
});

export function anthropicMessage(turn: StartedTurn, outcome: TurnOutcome, model: string, thinking = false) {
  return {
    ...messageHead(turn, model),
    content: outcome.output.flatMap((item) => block(item, thinking) ?? []),
    ...stopFields(outcome),
    usage: usageOf(outcome.usage),
  };
}

export interface MessageEventStream extends TurnObserver {
  /** The turn is open: `message_start` goes out. */
  begin(turn: StartedTurn): void;
  /** The closing events, or the error of a failed turn. */
  end(outcome: TurnOutcome): void;
}

export function messageEventStream(
  write: (frame: string) => void,
  model: string,
  thinking = false,
): MessageEventStream {
  let begun = false;
  const pending: string[] = [];
  const send = (type: string, fields: object) => {
    const frame = `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
    if (begun) write(frame);
    else pending.push(frame);
  };
  const blocks = new Map<string, number>(); // item id → block index
  const open = new Set<number>();
  const stop = (index: number) => {
    if (open.delete(index)) send("content_block_stop", { index });
  };
  return {
    begin(turn) {
      begun = true;
      const message = { ...messageHead(turn, model), content: [], stop_reason: null, stop_sequence: null };
      write(
        `event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { ...message, usage: usageOf(null) } })}\n\n`,
      );
      for (const frame of pending.splice(0)) write(frame);
    },
    onItemAdded(item) {
      if (item.type !== "message" && item.type !== "function_call" && !(item.type === "reasoning" && thinking)) return;
      const index = blocks.size;
      blocks.set(item.id, index);
      open.add(index);
      const start =
        item.type === "message"
          ? { type: "text", text: "" }
          : item.type === "reasoning"
            ? { type: "thinking", thinking: "", signature: "" }
            : { ...block(item, thinking), input: {} };
      send("content_block_start", { index, content_block: start });
      // A provider that gives a call whole announces it with its arguments already there.
      if (item.type === "function_call" && item.arguments) {
        send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: item.arguments } });
      }
    },
    onDelta(item, _outputIndex, delta) {
      const index = blocks.get(item.id);
      if (index === undefined) return;
      const change =
        item.type === "message"
          ? { type: "text_delta", text: delta }
          : item.type === "reasoning"
            ? { type: "thinking_delta", thinking: delta }
            : { type: "input_json_delta", partial_json: delta };
      send("content_block_delta", { index, delta: change });
    },
    onItemDone(item) {
      const index = blocks.get(item.id);
      if (index === undefined) return;
      // The signature closes a thinking block, as Anthropic streams it.
      if (item.type === "reasoning") {
        send("content_block_delta", { index, delta: { type: "signature_delta", signature: item.signature ?? "" } });
      }
      stop(index);
    },
    end(outcome) {
      if (outcome.status === "FAILED") {
        send("error", {
          error: { type: "api_error", message: `The model upstream failed: ${outcome.error?.message}` },
        });
        return;
      }
      for (const index of [...open]) stop(index);
      const usage = usageOf(outcome.usage);
      send("message_delta", {
        delta: stopFields(outcome),
        usage: { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens },
      });
      send("message_stop", {});
    },
  };
}
