// How an imported conversation becomes responses. A response is one turn: what the model was
// given (system, developer and user messages) and everything it did about it (reasoning, text,
// tool calls and the tool results that answered them). So a message the model is given opens a
// new response once the current one has output; anything else joins the current response's output.
import type { NewEvent } from "../vocabulary/events.js";

/** One event of an import, with where it came from for error messages. */
export interface ImportedEvent {
  event: NewEvent;
  /** The message or item that produced it, e.g. ["messages", "3"]. */
  path: string[];
  /** For a tool result: the field naming its call, e.g. ["messages", "3", "tool_call_id"]. */
  callIdPath?: string[];
}

export interface ImportedTurn {
  input: ImportedEvent[];
  output: ImportedEvent[];
}

const isGiven = (event: NewEvent) => event.type === "HUMAN" || event.type === "SYSTEM";

export function groupIntoTurns(events: readonly ImportedEvent[]): ImportedTurn[] {
  const turns: ImportedTurn[] = [];
  let current: ImportedTurn | undefined;
  for (const imported of events) {
    if (isGiven(imported.event)) {
      if (!current || current.output.length) turns.push((current = { input: [], output: [] }));
      current.input.push(imported);
    } else {
      // An import may start with the model's side (say, an assistant greeting): its response has no input.
      if (!current) turns.push((current = { input: [], output: [] }));
      current.output.push(imported);
    }
  }
  return turns;
}
