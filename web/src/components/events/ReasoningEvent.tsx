// The model's reasoning: often long, so collapsed until asked for; the model that wrote it shows.
import type { HistoryEvent } from "../../../../src/client/index.js";
import { summaryLine } from "../../lib/summary-line.js";
import { Markdown } from "../Markdown.js";
import { EventFrame } from "./EventFrame.js";

type Reasoning = Extract<HistoryEvent, { __typename: "ReasoningEvent" }>;

export function ReasoningEvent({ event }: { event: Reasoning }) {
  const label = <>Reasoning{event.modelName && <span className="model">{event.modelName}</span>}</>;
  return (
    <EventFrame event={event} kind="reasoning" label={label}>
      <details>
        <summary>{summaryLine(event.content)}</summary>
        <Markdown text={event.content} />
      </details>
    </EventFrame>
  );
}
