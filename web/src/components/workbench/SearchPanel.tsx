// The search box: words found in any event of any dialog (text, tool names, arguments), best first;
// a result opens its dialog on the branch that holds it, scrolled to the event. A hit reads as plain
// text (the Markdown's words, the match marked) under its dialog's title, or for an untitled dialog
// the start of its first message, as the dialog list shows it.
import { useState } from "react";
import { useQuery } from "urql";
import { useDebounced } from "../../hooks/use-debounced.js";
import { dialogPath } from "../../hooks/use-route.js";
import { countText } from "../../lib/counts.js";
import { SearchEventsDocument } from "../../lib/operations.js";
import { dialogName, plainSnippet } from "../../lib/plain-text.js";
import { Link } from "../Link.js";

const kindLabels: Record<string, string> = {
  HumanEvent: "human",
  AiEvent: "AI",
  SystemEvent: "system",
  ReasoningEvent: "reasoning",
  ToolCallEvent: "tool call",
  ToolResultEvent: "tool result",
};

export function SearchPanel() {
  const [text, setText] = useState("");
  const query = useDebounced(text.trim(), 250);
  const [{ data, fetching, error }] = useQuery({
    query: SearchEventsDocument,
    variables: { query, first: 20 },
    pause: !query,
    requestPolicy: "network-only",
  });
  const hits = query ? (data?.search.edges.map((edge) => edge.node) ?? []) : [];
  return (
    <section className="search-panel" role="search">
      <input
        type="search"
        className="search-input"
        placeholder="Search all dialogs  ( / )"
        aria-label="Search all dialogs"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setText("");
          if (e.key === "Enter") document.querySelector<HTMLAnchorElement>(".search-hit a")?.click();
        }}
        data-testid="search-input"
      />
      {query && (
        <div className="search-results" data-testid="search-results">
          <p className="muted search-summary" data-testid="search-summary">
            {error
              ? `Search failed: ${error.message}`
              : fetching && !data
                ? "Searching…"
                : `${countText(data?.search.totalCount ?? 0)} matching events`}
          </p>
          <ol>
            {hits.map((hit) => (
              <li
                key={hit.event.__typename + hit.dialogId + hit.seq}
                className="search-hit"
                data-testid="search-hit"
                data-dialog-id={hit.dialogId}
                data-seq={hit.seq}
              >
                <Link href={dialogPath(hit.dialogId, hit.responseId, hit.seq)} onClick={() => setText("")}>
                  <span className="search-hit-where">
                    <span className={hit.dialog.title ? "search-hit-title" : "search-hit-title untitled"}>
                      {dialogName(hit.dialog.title, hit.dialog.preview, hit.dialogId)}
                    </span>
                    <span className="tag">
                      {kindLabels[hit.event.__typename]}
                      {"toolName" in hit.event && hit.event.toolName ? ` · ${hit.event.toolName}` : ""}
                    </span>
                    <span className="event-seq">#{hit.seq}</span>
                  </span>
                  <span className="search-snippet">
                    {plainSnippet(hit.snippetParts).map((part, i) =>
                      part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
                    )}
                  </span>
                </Link>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
