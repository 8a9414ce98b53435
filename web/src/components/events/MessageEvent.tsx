// A human, AI or system message: markdown text and any multi-modal parts.
import type { HistoryEvent } from "../../../../src/client/index.js";
import { Markdown } from "../Markdown.js";
import { ContentParts } from "./ContentParts.js";
import { EventFrame } from "./EventFrame.js";

type Message = Extract<HistoryEvent, { __typename: "HumanEvent" | "AiEvent" | "SystemEvent" }>;

export function MessageEvent({ event, kind, label }: { event: Message; kind: string; label: string }) {
  return (
    <EventFrame event={event} kind={kind} label={label}>
      {event.content && <Markdown text={event.content} />}
      {event.parts && <ContentParts parts={event.parts} />}
    </EventFrame>
  );
}
