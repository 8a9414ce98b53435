// `stream: true`: a turn as the Responses API's server-sent events, each with its
// sequence_number and each written in one write. The events follow the model loop's items
// (src/generation/generate-turn.ts), MCP ones included (response.mcp_list_tools.*, response.mcp_call.*,
// response.mcp_call_arguments.*); the closing event (response.completed / .failed /
// .incomplete) is sent once the turn's end is committed. A client that goes away stops receiving
// events, not the turn.
import type { OutputItem } from "../generation/output-items.js";
import type { TurnObserver } from "../generation/generate-turn.js";
import type { TokenLogprob } from "../generation/logprobs.js";
import { obfuscated } from "./obfuscation.js";
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

/** An item as `response.output_item.added` announces it, before its arguments or results. */
export function emptied(item: OutputItem): OutputItem {
  if (item.type === "function_call") return { ...item, arguments: "" };
  if (item.type === "mcp_call") return { ...item, arguments: "", output: null, error: null, status: "in_progress" };
  if (item.type === "mcp_list_tools") return { ...item, tools: [], error: null };
  return item;
}

const emptyPart = (item: OutputItem) =>
  item.type === "message"
    ? { type: "output_text", text: "", annotations: [], logprobs: [] }
    : { type: "reasoning_text", text: "" };

export const sseFrame = (event: { type: string }) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

export interface TurnStreamOptions {
  /** The request asked for a reasoning summary (`reasoning.summary`), so the reasoning the
   * upstream gives is also streamed as the summary (reasoning_summary_part / _text events). */
  summary?: boolean;
  /** Delta events carry random padding (`stream_options.include_obfuscation`, obfuscation.ts). */
  obfuscate?: boolean;
}

export function turnEventStream(sink: ResponseEventSink, options: TurnStreamOptions = {}): TurnEventStream {
  const { summary = false, obfuscate = false } = options;
  let sequence = 0;
  let pending: (() => void)[] | null = [];
  const emit: Emit = (type, fields) => {
    const numbered = { type, sequence_number: sequence++, ...fields };
    const event = obfuscate ? obfuscated(numbered) : numbered;
    sink.write(sseFrame(event), event);
  };
  const whenBegun = (send: () => void) => (pending ? pending.push(send) : send());
  const itemEvents = itemEventsOf(emit, summary);

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
    onDelta: (item, index, delta, logprobs) => {
      const copy = snapshot(item);
      whenBegun(() => itemEvents.delta(copy, index, delta, logprobs));
    },
    onArgumentsDone: (item, index) => {
      const copy = snapshot(item);
      whenBegun(() => itemEvents.argumentsDone(copy, index));
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

/** Sends one event: numbered, and padded when the request asked for it. */
type Emit = (type: string, fields: object) => void;

/** The events an output item gives as it is added, grows and ends (`summary`: reasoning also streamed as its summary). */
function itemEventsOf(emit: Emit, summary: boolean) {
  return {
    added(item: OutputItem, index: number) {
      // An item starts empty, as the API announces it: content parts follow, then deltas.
      const shell = toOutputItem(emptied(item), "in_progress");
      if ("content" in shell) shell.content = [];
      emit("response.output_item.added", { output_index: index, item: shell });
      if (item.type === "message" || item.type === "reasoning") {
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
      if (item.type === "mcp_list_tools" || item.type === "mcp_call") {
        emit(`response.${item.type}.in_progress`, { item_id: item.id, output_index: index });
      }
    },
    delta(item: OutputItem, index: number, delta: string, logprobs: TokenLogprob[] = []) {
      const at = { item_id: item.id, output_index: index };
      if (item.type === "message") emit("response.output_text.delta", { ...at, content_index: 0, delta, logprobs });
      if (item.type === "reasoning") emit("response.reasoning_text.delta", { ...at, content_index: 0, delta });
      if (item.type === "reasoning" && summary) {
        emit("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta });
      }
      if (item.type === "function_call") emit("response.function_call_arguments.delta", { ...at, delta });
      if (item.type === "mcp_call") emit("response.mcp_call_arguments.delta", { ...at, delta });
    },
    argumentsDone(item: OutputItem, index: number) {
      if (item.type === "mcp_call") {
        emit("response.mcp_call_arguments.done", { item_id: item.id, output_index: index, arguments: item.arguments });
      }
    },
    done(item: OutputItem, index: number) {
      const at = { item_id: item.id, output_index: index };
      if (item.type === "message") {
        const logprobs = item.logprobs ?? [];
        emit("response.output_text.done", { ...at, content_index: 0, text: item.text, logprobs });
        emit("response.content_part.done", {
          ...at,
          content_index: 0,
          part: { type: "output_text", text: item.text, annotations: [], logprobs },
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
      if (item.type === "mcp_list_tools") emit(`response.mcp_list_tools.${item.error ? "failed" : "completed"}`, at);
      if (item.type === "mcp_call") emit(`response.mcp_call.${item.error ? "failed" : "completed"}`, at);
      emit("response.output_item.done", { output_index: index, item: toOutputItem(item, "completed", summary) });
    },
  };
}
