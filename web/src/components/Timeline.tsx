// The history as a timeline: one turn per response, each opened by its boundary.
import type { HistoryState } from "../../../src/client/index.js";
import type { BranchTree } from "../lib/branch-tree.js";
import { groupByResponse } from "../lib/group-by-response.js";
import { EventItem } from "./events/EventItem.js";
import { InFlightText } from "./events/InFlightText.js";
import { ResponseBoundary } from "./ResponseBoundary.js";

interface Props {
  dialogId: string;
  history: HistoryState;
  tree: BranchTree | null;
  headId: string | null;
}

export function Timeline({ dialogId, history, tree, headId }: Props) {
  const turns = groupByResponse(history);
  if (!turns.length) return <p className="muted pad">This dialog has no events yet.</p>;
  return (
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
              <EventItem key={event.id} event={event} />
            ))}
            {history.inFlight[turn.responseId] && <InFlightText text={history.inFlight[turn.responseId]!} />}
          </ol>
        </li>
      ))}
    </ol>
  );
}
