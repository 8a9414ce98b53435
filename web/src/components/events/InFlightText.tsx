// The answer (or reasoning) a response is typing: its text so far and a live cursor. It stays
// until the committed event takes its place (watchHistory drops it on that write).
import type { InFlightText as Text } from "../../../../src/client/index.js";

export function InFlightText({ text }: { text: Text }) {
  const kind = text.type === "REASONING" ? "reasoning" : "ai";
  return (
    <li
      className={`event event-${kind} event-in-flight`}
      data-testid="in-flight-text"
      data-event-type={text.type}
      data-part={text.part}
      aria-live="polite"
    >
      <header className="event-header">
        <span className="event-label">{kind === "ai" ? "AI" : "Reasoning"}</span>
        <span className="tag">typing</span>
      </header>
      <div className="event-body">
        <p className="typed-text">
          <span data-testid="in-flight-content">{text.text}</span>
          <span className="live-cursor" aria-hidden="true" />
        </p>
      </div>
    </li>
  );
}
