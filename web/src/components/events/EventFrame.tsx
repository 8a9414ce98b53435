// What every event in the timeline shares: its kind, its seq and time, copy and raw-JSON tools,
// and the attributes tests and styles select it by.
import { type ReactNode, useState } from "react";
import type { HistoryEvent } from "../../../../src/client/index.js";
import { formatTime } from "../../lib/format.js";
import { EventTools, rawJson } from "./EventTools.js";

interface Props {
  event: HistoryEvent;
  kind: string;
  label: ReactNode;
  children?: ReactNode;
  /** More tools beside copy and JSON (a human message's Edit). */
  tools?: ReactNode;
}

export function EventFrame({ event, kind, label, children, tools }: Props) {
  const [raw, setRaw] = useState(false);
  const interrupted = event.metadata.interrupted === true;
  const metadata = Object.entries(event.metadata).filter(([key]) => key !== "interrupted");
  return (
    <li className={`event event-${kind}`} data-testid="event" data-event-type={event.type} data-seq={event.seq}>
      <header className="event-header">
        <span className="event-label">{label}</span>
        {interrupted && <span className="tag tag-warning">interrupted</span>}
        {metadata.length > 0 && (
          <span className="tag" title={JSON.stringify(Object.fromEntries(metadata))} data-testid="event-metadata">
            {metadata.map(([key]) => key).join(", ")}
          </span>
        )}
        <span className="event-seq">#{event.seq}</span>
        <time dateTime={event.createdAt}>{formatTime(event.createdAt)}</time>
        {tools}
        <EventTools event={event} raw={raw} onToggleRaw={() => setRaw((r) => !r)} />
      </header>
      <div className="event-body">
        {raw ? (
          <pre className="json raw-json" data-testid="event-json">
            {rawJson(event)}
          </pre>
        ) : (
          children
        )}
      </div>
    </li>
  );
}
