// responseUpdated's stream: the response's id now (its current state), then again after every
// committed write to it, ending with the write that finishes it. Yields ids; the schema re-reads
// the response for each, so a repeated or late payload only shows the current state again.
import { Repeater } from "graphql-yoga";
import { prisma } from "../db/prisma.js";
import type { LiveBus } from "./live-bus.js";

export function responseUpdatesStream(live: LiveBus, responseId: string) {
  return new Repeater<string>(async (push, stop) => {
    const updates = await live.listen("responseUpdated", responseId);
    void stop.then(() => updates.return?.());
    // Listening first: a write committing now is in this read, or arrives next, or both.
    const response = await prisma.response.findUnique({ where: { id: responseId }, select: { status: true } });
    if (!response) return stop();
    await push(responseId);
    if (response.status !== "IN_PROGRESS") return stop();
    for await (const update of updates) {
      await push(responseId);
      if (update.status !== "IN_PROGRESS") break;
    }
    stop();
  });
}
