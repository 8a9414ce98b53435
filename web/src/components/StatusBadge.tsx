import type { ResponseStatus } from "../../../src/client/index.js";

const labels: Record<ResponseStatus, string> = {
  IN_PROGRESS: "in progress",
  COMPLETED: "completed",
  FAILED: "failed",
  INCOMPLETE: "incomplete",
  CANCELLED: "cancelled",
};

export function StatusBadge({ status }: { status: ResponseStatus }) {
  return (
    <span className={`status status-${status.toLowerCase()}`} data-status={status}>
      {labels[status]}
    </span>
  );
}
