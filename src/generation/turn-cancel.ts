// Stopping a generated turn wherever it runs. A turn's loop runs in the process that started it,
// while a cancel or an interrupt may land on any instance behind the load balancer: the process
// running the turn stops it directly, any other sends a notice on the live bus, and the process
// running it stops its loop (no more model or tool calls; an MCP call under way is given up,
// since the loop's abort signal goes with the call).
import type { LiveBus } from "../live/live-bus.js";
import type { Store } from "../store/store.js";
import type { Generator } from "./generate-turn.js";
import { untilTurnEnds } from "./turn-end.js";

const NOTICE = "cancelResponse";

const cancelNotice = (notice: unknown) =>
  notice && typeof notice === "object" && typeof (notice as Record<string, unknown>)[NOTICE] === "string"
    ? ((notice as Record<string, string>)[NOTICE] ?? null)
    : null;

/** Makes this process stop the turns it runs when another instance is asked to (buildApp calls it once). */
export function stopTurnsOnNotice(generator: Generator, live: LiveBus) {
  live.onNotice((notice) => {
    const responseId = cancelNotice(notice);
    if (responseId) void generator.cancel(responseId);
  });
}

/**
 * Stops the turn's loop wherever it runs, without waiting for it: for interruptResponse, whose
 * own write has already ended the turn as the caller asked.
 */
export function stopTurnEverywhere(generator: Generator, live: LiveBus, responseId: string) {
  if (!generator.cancel(responseId)) live.broadcast({ [NOTICE]: responseId });
}

/** How long a cancel waits for the instance running the turn before closing it itself. */
export const CANCEL_HANDOFF_MS = 2_000;

export interface CancelDeps {
  generator: Generator;
  live: LiveBus;
  store: Store;
}

/**
 * Cancels a turn and settles once its end is committed: the process running it stops it and
 * stores what it wrote (here directly, elsewhere through a notice, its end announced by the
 * dialog's live payloads). A turn still IN_PROGRESS after `handoffMs` is run by nobody (an agent's
 * turn, or one whose instance went away) and is closed with `closeHere`; so is one not running
 * here when there is no Redis, since then no other instance shares the dialogs' live payloads.
 */
export async function cancelTurn(
  responseId: string,
  dialogId: string,
  deps: CancelDeps,
  closeHere: () => Promise<unknown>,
  handoffMs = CANCEL_HANDOFF_MS,
): Promise<void> {
  const here = deps.generator.cancel(responseId);
  if (here) {
    await here;
    return;
  }
  if (!deps.live.redis) {
    const status = await deps.store.prisma.response.findUniqueOrThrow({
      where: { id: responseId },
      select: { status: true },
    });
    if (status.status === "IN_PROGRESS") await closeHere();
    return;
  }
  const ended = await untilTurnEnds(deps, responseId, dialogId, {
    deadlineMs: handoffMs,
    onWaiting: () => deps.live.broadcast({ [NOTICE]: responseId }),
  });
  if (!ended) await closeHere();
}
