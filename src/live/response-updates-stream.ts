// responseUpdated's stream: the response's id now (its current state), then again after every
// committed write to it, ending with the write that finishes it. Yields ids; the schema re-reads
// the response for each, so a repeated or late payload only shows the current state again. After a
// resync (Redis was away) it shows the current state too, and ends if the response finished.
import { Repeater } from "graphql-yoga";
import { prisma } from "../db/prisma.js";
import { isResync, type LiveBus } from "./live-bus.js";

export function responseUpdatesStream(live: LiveBus, responseId: string) {
  return new Repeater<string>(async (push, stop) => {
    const updates = await live.listen("responseUpdated", responseId);
    void stop.then(() => updates.return?.());
    // Listening first: a write committing now is in this read, or arrives next, or both.
    const readStatus = async () =>
      (await prisma.response.findUnique({ where: { id: responseId }, select: { status: true } }))?.status;
    const status = await readStatus();
    if (!status) return stop();
    await push(responseId);
    if (status !== "IN_PROGRESS") return stop();
    for await (const update of updates) {
      const statusNow = isResync(update) ? await readStatus() : update.status;
      if (!statusNow) break; // deleted
      await push(responseId);
      if (statusNow !== "IN_PROGRESS") break;
    }
    stop();
  });
}
