// `POST /v1/responses/{id}/cancel`, from any instance: the instance running the turn stops it
// (this one directly, the others through a notice on the live bus); the answer comes once the
// turn's end is committed, which the dialog's live payloads announce. A turn still IN_PROGRESS
// after `handoffMs` is run by nobody (its instance went away) and is closed here as cancelled.
import type { ResponsesDeps } from "./create-response.js";
import { readResponseView } from "./stored-responses.js";
import { untilEnded } from "./turn-end.js";

const NOTICE = "cancelResponse";

export const cancelNotice = (notice: unknown) =>
  notice && typeof notice === "object" && typeof (notice as Record<string, unknown>)[NOTICE] === "string"
    ? ((notice as Record<string, string>)[NOTICE] ?? null)
    : null;

/** How long a cancel waits for the instance running the turn before closing it itself. */
export const CANCEL_HANDOFF_MS = 2_000;

export async function cancel(id: string, dialogId: string, deps: ResponsesDeps, handoffMs = CANCEL_HANDOFF_MS) {
  const here = deps.generator.cancel(id);
  if (here) {
    await here;
    return readResponseView(deps.store, id);
  }
  const view = await untilEnded(deps, id, dialogId, {
    deadlineMs: handoffMs,
    onWaiting: () => deps.live.broadcast({ [NOTICE]: id }),
  });
  if (view.status !== "IN_PROGRESS") return view;
  // The text typed so far is kept as the partial answer, as a cancel where the turn runs keeps it.
  await deps.writes.cancelResponse(id);
  return readResponseView(deps.store, id);
}
