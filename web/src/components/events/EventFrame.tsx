// What every event in the timeline shares: its kind, its seq and time, and the attributes tests
// and styles select it by.
import type { ReactNode } from "react";
import type { HistoryEvent } from "../../../../src/client/index.js";
import { formatTime } from "../../lib/format.js";

interface Props {
  event: HistoryEvent;
  kind: string;
  label: ReactNode;
  children?: ReactNode;
}

export function EventFrame({ event, kind, label, children }: Props) {
  const interrupted = event.metadata.interrupted === true;
  return (
    <li className={`event event-${kind}`} data-testid="event" data-event-type={event.type} data-seq={event.seq}>
      <header className="event-header">
        <span className="event-label">{label}</span>
        {interrupted && <span className="tag tag-warning">interrupted</span>}
        <span className="event-seq">#{event.seq}</span>
        <time dateTime={event.createdAt}>{formatTime(event.createdAt)}</time>
      </header>
      <div className="event-body">{children}</div>
    </li>
  );
}
