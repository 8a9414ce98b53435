// A tool's result, answering a call by its id; a failed one is marked as an error.
import type { HistoryEvent } from "../../../../src/client/index.js";
import { prettyIfJson } from "../../lib/format.js";
import { EventFrame } from "./EventFrame.js";

type ToolResult = Extract<HistoryEvent, { __typename: "ToolResultEvent" }>;

export function ToolResultEvent({ event }: { event: ToolResult }) {
  const label = (
    <>
      Tool result <code className="tool-name">{event.toolName}</code>
      <code className="call-id">{event.callId}</code>
      {event.isError && <span className="tag tag-error">error</span>}
    </>
  );
  return (
    <EventFrame event={event} kind={event.isError ? "tool-error" : "tool-result"} label={label}>
      <pre className="tool-output">{prettyIfJson(event.content)}</pre>
    </EventFrame>
  );
}
