// One history event, drawn for what it is.
import type { HistoryEvent } from "../../../../src/client/index.js";
import { MessageEvent } from "./MessageEvent.js";
import { ReasoningEvent } from "./ReasoningEvent.js";
import { ToolCallEvent } from "./ToolCallEvent.js";
import { ToolResultEvent } from "./ToolResultEvent.js";

export function EventItem({ event }: { event: HistoryEvent }) {
  switch (event.__typename) {
    case "HumanEvent":
      return <MessageEvent event={event} kind="human" label="Human" />;
    case "AiEvent":
      return <MessageEvent event={event} kind="ai" label="AI" />;
    case "SystemEvent":
      return <MessageEvent event={event} kind="system" label="System prompt" />;
    case "ReasoningEvent":
      return <ReasoningEvent event={event} />;
    case "ToolCallEvent":
      return <ToolCallEvent event={event} />;
    case "ToolResultEvent":
      return <ToolResultEvent event={event} />;
  }
}
