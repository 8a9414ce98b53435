// A dialog opened from a share link (/shared/<token>): read-only, no API key, live while the link
// is — the server says when the history changed (and streams an answer as it is typed) over
// Server-Sent Events, and the page reads it again.
import { useEffect, useState } from "react";
import type { HistoryEvent, ResponseSummary } from "../../../../src/client/index.js";
import { readableError } from "../../lib/readable-error.js";
import { EventItem } from "../events/EventItem.js";
import { StatusBadge } from "../StatusBadge.js";

interface Shared {
  dialog: { id: string; title: string | null };
  responseId: string | null;
  events: HistoryEvent[];
  responses: Record<string, Pick<ResponseSummary, "id" | "status" | "model" | "depth">>;
}

type State = { phase: "loading" } | { phase: "gone"; message: string } | { phase: "shown"; shared: Shared };

export function SharedDialog({ token }: { token: string }) {
  const [state, setState] = useState<State>({ phase: "loading" });
  const [typing, setTyping] = useState<Record<string, string>>({});
  useEffect(() => {
    let active = true;
    const base = `/api/shared/${encodeURIComponent(token)}`;
    const read = async () => {
      const response = await fetch(base);
      const body = (await response.json().catch(() => null)) as (Shared & { detail?: string }) | null;
      if (!active) return;
      if (!response.ok || !body)
        return setState({ phase: "gone", message: readableError(body?.detail ?? `HTTP ${response.status}`) });
      setTyping({});
      setState({ phase: "shown", shared: body });
    };
    void read();
    const live = new EventSource(`${base}/live`);
    live.addEventListener("change", () => void read());
    live.addEventListener("text", (event) => {
      const { responseId, offset, delta } = JSON.parse((event as MessageEvent<string>).data) as {
        responseId: string;
        offset: number;
        delta: string;
      };
      setTyping((now) => ({ ...now, [responseId]: (now[responseId] ?? "").slice(0, offset) + delta }));
    });
    live.addEventListener("gone", () => {
      live.close();
      void read();
    });
    return () => {
      active = false;
      live.close();
    };
  }, [token]);

  if (state.phase === "loading") return <p className="muted pad">Loading the shared dialog…</p>;
  if (state.phase === "gone") {
    return (
      <section className="not-found shared-gone" data-testid="shared-gone">
        <h1>This link does not open</h1>
        <p>{state.message}</p>
      </section>
    );
  }
  const { shared } = state;
  const turns = groupTurns(shared.events, shared.responseId);
  return (
    <main className="main shared-view" data-testid="shared-view">
      <header className="dialog-header">
        <h1>{shared.dialog.title || "Shared dialog"}</h1>
        <p className="dialog-header-meta muted">Read-only · shared with you · live</p>
      </header>
      <ol className="timeline" data-testid="timeline">
        {turns.map(([responseId, events]) => {
          const response = shared.responses[responseId];
          return (
            <li key={responseId} className="turn">
              <div className="response-boundary" data-response-id={responseId}>
                <div className="response-line">
                  <span className="turn-label">Turn {response ? response.depth + 1 : "?"}</span>
                  {response && <StatusBadge status={response.status} />}
                  {response?.model && <span className="model">{response.model}</span>}
                </div>
              </div>
              <ol className="events">
                {events.map((event) => (
                  <EventItem key={event.id} event={event} />
                ))}
                {typing[responseId] && (
                  <li className="event event-ai event-in-flight" data-testid="in-flight-text">
                    <div className="event-body">
                      <p className="typed-text">{typing[responseId]}</p>
                    </div>
                  </li>
                )}
              </ol>
            </li>
          );
        })}
      </ol>
    </main>
  );
}

function groupTurns(events: HistoryEvent[], tip: string | null): [string, HistoryEvent[]][] {
  const turns: [string, HistoryEvent[]][] = [];
  for (const event of events) {
    const last = turns.at(-1);
    if (last?.[0] === event.response.id) last[1].push(event);
    else turns.push([event.response.id, [event]]);
  }
  if (tip && turns.at(-1)?.[0] !== tip) turns.push([tip, []]);
  return turns;
}
