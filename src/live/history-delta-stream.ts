// historyDelta's stream: everything committed after `afterSeq`, then live, each seq exactly once
// and in order. The listener is in place before the database is read, so a write committing
// while the replay runs is either in the replay or arrives live (or both: the duplicate is
// dropped by seq). Live payloads can arrive out of order (two writers publish after their
// commits, in either order) or not at all (a slow subscriber's buffer overflowed, Redis blinked):
// a payload whose previousSeq is past what was sent shows a gap, which is read from the database.
import { Repeater } from "graphql-yoga";
import { prisma } from "../db/prisma.js";
import { readDeltasBetween, type HistoryDeltaView } from "./delta-reads.js";
import type { DeltaPayload, LiveBus } from "./live-bus.js";

/** A payload still to be read (resolved in the schema), or a delta already read. */
export type DeltaItem = DeltaPayload | HistoryDeltaView;

// A Repeater rather than an async generator: a generator waiting for the next payload cannot be
// stopped until one arrives, while a repeater's stop ends the wait (and the listener) at once.
export function historyDeltaStream(live: LiveBus, dialogId: string, afterSeq: number | null) {
  return new Repeater<DeltaItem>(async (push, stop) => {
    let stopped = false;
    const updates = await live.listen("historyDelta", dialogId);
    void stop.then(() => {
      stopped = true;
      return updates.return?.();
    });
    let sent = afterSeq ?? 0;
    const catchUp = async (upTo: number) => {
      for await (const delta of readDeltasBetween(dialogId, sent, upTo)) {
        if (stopped) return;
        await push(delta);
        sent = delta.seq;
      }
    };

    const dialog = await prisma.dialog.findUnique({ where: { id: dialogId }, select: { lastSeq: true } });
    if (!dialog) return stop();
    if (afterSeq == null) sent = dialog.lastSeq;
    await catchUp(dialog.lastSeq);

    for await (const update of updates) {
      const statusOnly = update.seq === update.previousSeq;
      if (update.seq <= sent && !statusOnly) continue; // already sent
      if (update.previousSeq === sent || (statusOnly && update.seq <= sent)) {
        await push(update);
        sent = Math.max(sent, update.seq);
        continue;
      }
      // A gap before this write: read everything up to its end (its own events included).
      await catchUp(update.seq);
      if (statusOnly) await push(update);
    }
    stop();
  });
}
