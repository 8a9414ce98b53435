// `stream: true`: a turn as the Responses API's server-sent events, each with its
// sequence_number and each written in one write. The events follow the model loop's items
// (src/generation/generate-turn.ts); the closing event (response.completed / .failed /
// .incomplete) is sent once the turn's end is committed. A client that goes away stops receiving
// events, not the turn.
import type { OutputItem } from "../generation/output-items.js";
import type { TurnObserver } from "../generation/generate-turn.js";
import { type ResponseObject, toOutputItem } from "./response-object.js";

export interface ResponseEventSink {
  /** Where the events go: one call per event, already framed. */
  write(frame: string, event: { type: string }): void;
}

export interface TurnEventStream extends TurnObserver {
  /** The turn is open: response.created and response.in_progress (events before this wait). */
  begin(response: ResponseObject): void;
  /** The closing event. */
  end(response: ResponseObject): void;
}

const emptyPart = (item: OutputItem) =>
  item.type === "message"
    ? { type: "output_text", text: "", annotations: [], logprobs: [] }
    : { type: "reasoning_text", text: "" };

export const sseFrame = (event: { type: string }) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * `summary`: the request asked for a reasoning summary (`reasoning.summary`), so the reasoning the
 * upstream gives is also streamed as the summary (reasoning_summary_part / _text events).
 */
export function turnEventStream(sink: ResponseEventSink, { summary = false } = {}): TurnEventStream {
  let sequence = 0;
  let pending: (() => void)[] | null = [];
  const emit = (type: string, fields: object) => {
    const event = { type, sequence_number: sequence++, ...fields };
    sink.write(sseFrame(event), event);
  };
  const whenBegun = (send: () => void) => (pending ? pending.push(send) : send());

  const itemEvents = {
    added(item: OutputItem, index: number) {
      // An item starts empty, as the API announces it: content parts follow, then deltas.
      const shell = toOutputItem(item.type === "function_call" ? { ...item, arguments: "" } : item, "in_progress");
      if ("content" in shell) shell.content = [];
      emit("response.output_item.added", { output_index: index, item: shell });
      if (item.type !== "function_call") {
        emit("response.content_part.added", {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          part: emptyPart(item),
        });
      }
      if (item.type === "reasoning" && summary) {
        const part = { type: "summary_text", text: "" };
        emit("response.reasoning_summary_part.added", {
          item_id: item.id,
          output_index: index,
          summary_index: 0,
          part,
        });
      }
    },
    delta(item: OutputItem, index: number, delta: string) {
      const at = { item_id: item.id, output_index: index };
      if (item.type === "message") emit("response.output_text.delta", { ...at, content_index: 0, delta, logprobs: [] });
      if (item.type === "reasoning") emit("response.reasoning_text.delta", { ...at, content_index: 0, delta });
      if (item.type === "reasoning" && summary) {
        emit("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta });
      }
      if (item.type === "function_call") emit("response.function_call_arguments.delta", { ...at, delta });
    },
    done(item: OutputItem, index: number) {
      const at = { item_id: item.id, output_index: index };
      if (item.type === "message") {
        emit("response.output_text.done", { ...at, content_index: 0, text: item.text, logprobs: [] });
        emit("response.content_part.done", {
          ...at,
          content_index: 0,
          part: { type: "output_text", text: item.text, annotations: [], logprobs: [] },
        });
      }
      if (item.type === "reasoning") {
        emit("response.reasoning_text.done", { ...at, content_index: 0, text: item.text });
        emit("response.content_part.done", {
          ...at,
          content_index: 0,
          part: { type: "reasoning_text", text: item.text },
        });
        if (summary) {
          emit("response.reasoning_summary_text.done", { ...at, summary_index: 0, text: item.text });
          const part = { type: "summary_text", text: item.text };
          emit("response.reasoning_summary_part.done", { ...at, summary_index: 0, part });
        }
      }
      if (item.type === "function_call") {
        emit("response.function_call_arguments.done", { ...at, name: item.name, arguments: item.arguments });
      }
      emit("response.output_item.done", { output_index: index, item: toOutputItem(item, "completed", summary) });
    },
  };

  // Items are copied when their event is queued: a queued event must show the item as it was.
  const snapshot = (item: OutputItem): OutputItem => ({ ...item });
  return {
    begin(response) {
      emit("response.created", { response });
      emit("response.in_progress", { response });
      const queued = pending ?? [];
      pending = null;
      for (const send of queued) send();
    },
    onItemAdded: (item, index) => {
      const copy = snapshot(item);
      whenBegun(() => itemEvents.added(copy, index));
    },
    onDelta: (item, index, delta) => {
      const copy = snapshot(item);
      whenBegun(() => itemEvents.delta(copy, index, delta));
    },
    onItemDone: (item, index) => {
      const copy = snapshot(item);
      whenBegun(() => itemEvents.done(copy, index));
    },
    end(response) {
      const type =
        response.status === "completed"
          ? "response.completed"
          : response.status === "incomplete"
            ? "response.incomplete"
            : "response.failed";
      emit(type, { response });
    },
  };
}
