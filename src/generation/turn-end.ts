// Waiting for a turn that runs elsewhere (another request, or another instance) to end: every
// committed write to its dialog is announced on the live bus, the turn's end among them, and the
// response row then says whether it is still IN_PROGRESS. Used by cancel, interrupt and an
// idempotent retry of a running turn.
import type { LiveBus } from "../live/live-bus.js";
import type { Store } from "../store/store.js";

export interface UntilTurnEndsOptions {
  /** Give up after this many ms (the turn may then still be IN_PROGRESS); none when not given. */
  deadlineMs?: number;
  /** Called once, when the turn is seen still running with the listener in place. */
  onWaiting?: () => void;
}

/**
 * Settles once the response is no longer IN_PROGRESS, at the deadline, or when the bus ends its
 * listeners (shutdown); answers whether it has ended.
 */
export async function untilTurnEnds(
  deps: { live: LiveBus; store: Store },
  responseId: string,
  dialogId: string,
  { deadlineMs, onWaiting }: UntilTurnEndsOptions = {},
): Promise<boolean> {
  const ended = async () =>
    (
      await deps.store.prisma.response.findUniqueOrThrow({
        where: { id: responseId, dialogId },
        select: { status: true },
      })
    ).status !== "IN_PROGRESS";
  // Listening first, then reading: an end committed in between is still announced.
  const updates = await deps.live.listen("historyDelta", dialogId);
  try {
    if (await ended()) return true;
    onWaiting?.();
    const deadline = deadlineMs === undefined ? null : Date.now() + deadlineMs;
    for (;;) {
      const next = await (deadline === null ? updates.next() : beforeDeadline(updates.next(), deadline));
      if (await ended()) return true;
      if (next === null || next.done) return false;
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
