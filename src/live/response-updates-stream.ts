// responseUpdated's stream: the response's id now (its current state), then again after every
// committed write to it, ending with the write that finishes it. Yields ids; the schema re-reads
// the response for each, so a repeated or late payload only shows the current state again. After a
// resync (Redis was away) it shows the current state too, and ends if the response finished.
import type { Store } from "../store/store.js";
import { isCleared, isDeleted, isResponseDeleted, isResync, isText, type LiveBus } from "./live-bus.js";
import { onAbort, stoppableStream } from "./stoppable-stream.js";

export function responseUpdatesStream({ prisma }: Store, live: LiveBus, responseId: string) {
  return stoppableStream<string>(async function* (signal) {
    const updates = await live.listen("responseUpdated", responseId);
    onAbort(signal, () => updates.return?.());
    try {
      // Listening first: a write committing now is in this read, or arrives next, or both.
      const readStatus = async () =>
        (await prisma.response.findUnique({ where: { id: responseId }, select: { status: true } }))?.status;
      const status = await readStatus();
      if (!status) return;
      yield responseId;
      if (status !== "IN_PROGRESS") return;
      for await (const update of updates) {
        if (isText(update)) continue; // text goes to historyDelta only
        const statusNow =
          isResync(update) || isCleared(update) || isDeleted(update) || isResponseDeleted(update)
            ? await readStatus()
            : update.status;
        if (!statusNow) break; // deleted
        yield responseId;
        if (statusNow !== "IN_PROGRESS") break;
      }
    } finally {
      await updates.return?.();
    }
  });
}
