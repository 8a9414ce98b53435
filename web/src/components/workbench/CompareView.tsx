// Two branches side by side: what they share (up to the fork), then each one's events after the
// fork with its model, status and token usage, each exportable.
import { useQuery } from "urql";
import type { BranchSideFieldsFragment } from "../../../../src/client/index.js";
import { dialogPath } from "../../hooks/use-route.js";
import { formatUsage, plural } from "../../lib/format.js";
import { CompareBranchesDocument } from "../../lib/operations.js";
import { EventItem } from "../events/EventItem.js";
import { Link } from "../Link.js";
import { NotFound } from "../NotFound.js";
import { StatusBadge } from "../StatusBadge.js";
import { ExportMenu } from "./ExportMenu.js";

export function CompareView({ dialogId, a, b }: { dialogId: string; a: string; b: string }) {
  const [{ data, error, fetching }] = useQuery({ query: CompareBranchesDocument, variables: { a, b } });
  if (error && !data) return <NotFound message={error.graphQLErrors[0]?.message ?? error.message} />;
  const comparison = data?.compareBranches;
  if (!comparison) return <p className="muted pad">{fetching ? "Comparing…" : "Nothing to compare."}</p>;
  const ancestor = comparison.commonAncestor;
  return (
    <section className="compare-view" data-testid="compare-view">
      <header className="compare-header">
        <h1>Branches compared</h1>
        <p className="muted">
          <Link href={dialogPath(dialogId)}>back to the dialog</Link>
          {" · "}
          {ancestor ? (
            <span data-testid="compare-shared">
              {plural(comparison.shared.totalMessages, "shared event")} up to turn {ancestor.depth + 1} (
              <Link href={dialogPath(dialogId, ancestor.id)}>read them</Link>), then:
            </span>
          ) : (
            <span>no shared history</span>
          )}
        </p>
      </header>
      <div className="compare-columns">
        <Side dialogId={dialogId} side={comparison.a} label="A" />
        <Side dialogId={dialogId} side={comparison.b} label="B" />
      </div>
    </section>
  );
}

function Side({ dialogId, side, label }: { dialogId: string; side: BranchSideFieldsFragment; label: string }) {
  const usage = formatUsage(side.usage);
  return (
    <article className="compare-side" data-testid="compare-side" data-tip-id={side.tip.id}>
      <header className="compare-side-header">
        <h2>
          {label}: {side.preview ?? "(no text)"}
        </h2>
        <p className="response-line">
          <StatusBadge status={side.tip.status} />
          {side.tip.model && <span className="model">{side.tip.model}</span>}
          <span data-testid="compare-side-count">{plural(side.eventCount, "event")} after the fork</span>
          {usage && <span className="usage">{usage}</span>}
        </p>
        <p className="compare-side-links">
          <Link href={dialogPath(dialogId, side.tip.id)}>read this branch</Link>
          <ExportMenu dialogId={dialogId} responseId={side.tip.id} />
        </p>
      </header>
      <ol className="events">
        {side.events.map((event) => (
          <EventItem key={event.id} event={event} />
        ))}
      </ol>
    </article>
  );
}
