// The history as a timeline: one turn per response, each opened by its boundary. A long dialog
// draws only its latest events (WINDOW at first, more on request): a 10,000-event dialog opens as
// fast as a short one, and the page stays light however long the dialog grows. The history may hold
// only the last events (`earlier` more before them): the next window's worth is read behind the
// one drawn, so "Show earlier" draws without waiting.
import { useEffect, useState } from "react";
import type { HistoryState } from "../../../src/client/index.js";
import type { DialogHistory } from "../../../src/client/react/index.js";
import { useEditMessage } from "../hooks/use-edit-message.js";
import type { BranchTree } from "../lib/branch-tree.js";
import { groupByResponse } from "../lib/group-by-response.js";
import { EventItem } from "./events/EventItem.js";
import { InFlightText } from "./events/InFlightText.js";
import { ResponseBoundary } from "./ResponseBoundary.js";

export const WINDOW = 200;
/** Events "Show earlier" adds. */
const STEP = WINDOW * 2;

interface Props {
  dialogId: string;
  history: DialogHistory;
  tree: BranchTree | null;
  headId: string | null;
  /** Opened at this event: the window reaches back to it. */
  openAtSeq?: number | null;
}

export function Timeline({ dialogId, history, tree, headId, openAtSeq }: Props) {
  const [shown, setShown] = useState(() => initialWindow(history, openAtSeq ?? null));
  const edit = useEditMessage(dialogId, history);
  const held = Math.max(0, history.events.length - shown);
  const hidden = held + history.earlier;
  const { earlier, loadEarlier } = history;
  useEffect(() => {
    if (earlier > 0 && held < STEP) void loadEarlier(STEP - held);
  }, [earlier, held, loadEarlier]);
  const turns = groupByResponse({ ...history, events: history.events.slice(held) });
  if (!turns.length) return <p className="muted pad">This dialog has no events yet.</p>;
  return (
    <>
      {hidden > 0 && (
        <p className="earlier">
          <button type="button" onClick={() => setShown((n) => n + STEP)} data-testid="show-earlier">
            Show earlier ({hidden.toLocaleString("en")} more)
          </button>
        </p>
      )}
      <ol className="timeline" data-testid="timeline">
        {turns.map((turn) => (
          <li key={turn.responseId} className="turn">
            <ResponseBoundary
              dialogId={dialogId}
              responseId={turn.responseId}
              response={history.responses[turn.responseId]}
              tree={tree}
              headId={headId}
              inputs={turn.events.flatMap((event) =>
                event.__typename === "HumanEvent" && event.content ? [event.content] : [],
              )}
            />
            <ol className="events">
              {turn.events.map((event) => (
                <EventItem key={event.id} event={event} onEdit={event.__typename === "HumanEvent" ? edit : undefined} />
              ))}
              {history.inFlight[turn.responseId] && <InFlightText text={history.inFlight[turn.responseId]!} />}
            </ol>
          </li>
        ))}
      </ol>
    </>
  );
}

function initialWindow(history: HistoryState, openAtSeq: number | null) {
  if (openAtSeq == null) return WINDOW;
  const index = history.events.findIndex((event) => event.seq === openAtSeq);
  return index < 0 ? WINDOW : Math.max(WINDOW, history.events.length - index + 20);
}
