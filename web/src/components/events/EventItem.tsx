// One history event, drawn for what it is.
import type { HistoryEvent } from "../../../../src/client/index.js";
import type { EditMessage } from "../../hooks/use-edit-message.js";
import { HumanMessage } from "./HumanMessage.js";
import { MessageEvent } from "./MessageEvent.js";
import { ReasoningEvent } from "./ReasoningEvent.js";
import { ToolCallEvent } from "./ToolCallEvent.js";
import { ToolResultEvent } from "./ToolResultEvent.js";

/** `onEdit`, when given, lets a human message be edited into a new branch. */
export function EventItem({ event, onEdit }: { event: HistoryEvent; onEdit?: EditMessage }) {
  switch (event.__typename) {
    case "HumanEvent":
      return onEdit ? (
        <HumanMessage event={event} onEdit={onEdit} />
      ) : (
        <MessageEvent event={event} kind="human" label="Human" />
      );
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
