// The streaming events of a background turn, numbered by position so that any instance derives the
// same numbers from the same state: the committed output events of the response and its in-flight
// text (src/live/in-flight-text.ts, shared through Redis). `response.created` is 0 and
// `response.in_progress` 1; then each output item takes one number per framing event and one per
// character of its text (a delta is numbered by its last character), so a text that arrives in
// other chunks on another instance keeps its numbers. A client that saw number N resumes with
// `starting_after=N` and gets exactly what follows, the rest of a text included.
import type { OutputItem } from "../generation/output-items.js";
import { type ResponseObject, toOutputItem } from "./response-object.js";

export interface ResumableEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

/** What is known of the turn now: its items (the last one maybe still typed) and, once over, its object. */
export interface TurnState {
  response: ResponseObject;
  items: OutputItem[];
  /** Whether the last item is still being typed (in-flight text). */
  lastOpen: boolean;
  final: boolean;
}

const textOf = (item: OutputItem) => (item.type === "function_call" ? item.arguments : item.text);

/** Every event of `state` numbered after `after`, text deltas cut at `after` (a resume mid-text). */
export function eventsAfter(state: TurnState, after: number): ResumableEvent[] {
  const events: ResumableEvent[] = [];
  let next = 0;
  const emit = (type: string, fields: object) => {
    const number = next++;
    if (number > after) events.push({ type, sequence_number: number, ...fields });
  };
  const inProgress = { ...state.response, status: "in_progress", output: [], usage: null };
  emit("response.created", { response: inProgress });
  emit("response.in_progress", { response: inProgress });
  state.items.forEach((item, index) => {
    const open = state.lastOpen && index === state.items.length - 1;
    const at = { item_id: item.id, output_index: index };
    const shell = toOutputItem(item.type === "function_call" ? { ...item, arguments: "" } : item, "in_progress");
    if ("content" in shell) shell.content = [];
    emit("response.output_item.added", { output_index: index, item: shell });
    if (item.type !== "function_call") {
      emit("response.content_part.added", { ...at, content_index: 0, part: emptyPart(item) });
    }
    const text = textOf(item);
    const base = next;
    next += text.length;
    const from = Math.max(0, after - base + 1);
    if (text.length > from) events.push(deltaEvent(item, at, text.slice(from), base + text.length - 1));
    if (open) return;
    doneEvents(item, at, emit);
  });
  if (state.final && !state.lastOpen) emit(closingType(state.response.status), { response: state.response });
  return events;
}

const emptyPart = (item: OutputItem) =>
  item.type === "message"
    ? { type: "output_text", text: "", annotations: [], logprobs: [] }
    : { type: "reasoning_text", text: "" };

function deltaEvent(item: OutputItem, at: object, delta: string, number: number): ResumableEvent {
  const type =
    item.type === "message"
      ? "response.output_text.delta"
      : item.type === "reasoning"
        ? "response.reasoning_text.delta"
        : "response.function_call_arguments.delta";
  const content = item.type === "function_call" ? {} : { content_index: 0 };
  const logprobs = item.type === "message" ? { logprobs: [] } : {};
  return { type, sequence_number: number, ...at, ...content, delta, ...logprobs };
}

function doneEvents(item: OutputItem, at: object, emit: (type: string, fields: object) => void) {
  if (item.type === "message") {
    emit("response.output_text.done", { ...at, content_index: 0, text: item.text, logprobs: [] });
    const part = { type: "output_text", text: item.text, annotations: [], logprobs: [] };
    emit("response.content_part.done", { ...at, content_index: 0, part });
  } else if (item.type === "reasoning") {
    emit("response.reasoning_text.done", { ...at, content_index: 0, text: item.text });
    emit("response.content_part.done", { ...at, content_index: 0, part: { type: "reasoning_text", text: item.text } });
  } else {
    emit("response.function_call_arguments.done", { ...at, name: item.name, arguments: item.arguments });
  }
  emit("response.output_item.done", {
    output_index: (at as { output_index: number }).output_index,
    item: toOutputItem(item, "completed"),
  });
}

const closingType = (status: string) =>
  status === "completed" ? "response.completed" : status === "incomplete" ? "response.incomplete" : "response.failed";
