// A human, AI or system message: markdown text and any multi-modal parts.
import type { ReactNode } from "react";
import type { HistoryEvent } from "../../../../src/client/index.js";
import { Markdown } from "../Markdown.js";
import { ContentParts } from "./ContentParts.js";
import { EventFrame } from "./EventFrame.js";

type Message = Extract<HistoryEvent, { __typename: "HumanEvent" | "AiEvent" | "SystemEvent" }>;

interface Props {
  event: Message;
  kind: string;
  label: string;
  tools?: ReactNode;
}

export function MessageEvent({ event, kind, label, tools }: Props) {
  return (
    <EventFrame event={event} kind={kind} label={label} tools={tools}>
      {event.content && <Markdown text={event.content} />}
      {event.parts && <ContentParts parts={event.parts} />}
    </EventFrame>
  );
}
