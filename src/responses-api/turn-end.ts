// Waiting for a turn that runs elsewhere (another request, or another instance) to end: every
// committed write to its dialog is announced on the live bus, the turn's end among them, and the
// response row then says how it ended. Used by cancel and by an idempotent retry of a running turn.
import type { ResponsesDeps } from "./responses-deps.js";
import type { ResponseView } from "./response-object.js";
import { readResponseView } from "./stored-responses.js";

export interface UntilEndedOptions {
  /** Give up after this many ms (the view then still says IN_PROGRESS); none when not given. */
  deadlineMs?: number;
  /** Called once, when the turn is seen still running with the listener in place. */
  onWaiting?: () => void;
}

/** The response's view once it is no longer IN_PROGRESS, or at the deadline, or when the bus ends its listeners (shutdown). */
export async function untilEnded(
  deps: Pick<ResponsesDeps, "live" | "store">,
  id: string,
  dialogId: string,
  { deadlineMs, onWaiting }: UntilEndedOptions = {},
): Promise<ResponseView> {
  // Listening first, then reading: an end committed in between is still announced.
  const updates = await deps.live.listen("historyDelta", dialogId);
  try {
    let view = await readResponseView(deps.store, id);
    if (view.status !== "IN_PROGRESS") return view;
    onWaiting?.();
    const deadline = deadlineMs === undefined ? null : Date.now() + deadlineMs;
    for (;;) {
      const next = await (deadline === null ? updates.next() : beforeDeadline(updates.next(), deadline));
      view = await readResponseView(deps.store, id);
      if (view.status !== "IN_PROGRESS" || next === null || next.done) return view;
    }
  } finally {
    await updates.return?.();
  }
}

function beforeDeadline<T>(next: Promise<T>, deadline: number) {
  return Promise.race([
    next,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, deadline - Date.now())).unref()),
  ]);
}
