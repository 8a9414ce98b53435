// Whether the page is following the dialog right now.
import type { WatchStatus } from "../../../src/client/index.js";

const labels: Record<WatchStatus, string> = {
  loading: "loading…",
  live: "live",
  reconnecting: "reconnecting…",
  "not-found": "not found",
  unauthenticated: "key refused",
  closed: "closed",
};

export function LiveIndicator({ status, error }: { status: WatchStatus; error: Error | null }) {
  return (
    <span className={`live live-${status}`} data-testid="live-indicator" title={error?.message}>
      <span className="dot" aria-hidden /> {labels[status]}
    </span>
  );
}
