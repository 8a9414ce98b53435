// historyDelta's stream: everything committed after `afterSeq`, then live, each seq exactly once
// and in order. The listener is in place before the database is read, so a write committing
// while the replay runs is either in the replay or arrives live (or both: the duplicate is
// dropped by seq). Live payloads can arrive out of order (two writers publish after their
// commits, in either order) or not at all (a slow subscriber's buffer overflowed, Redis blinked):
// a payload whose previousSeq is past what was sent shows a gap, which is read from the database.
// A resync (Redis came back after an outage) reads everything committed since what was sent.
import { prisma } from "../db/prisma.js";
import { readDeltasBetween, type HistoryDeltaView } from "./delta-reads.js";
import { type DeltaPayload, isResync, type LiveBus } from "./live-bus.js";
import { onAbort, stoppableStream } from "./stoppable-stream.js";

/** A payload still to be read (resolved in the schema), or a delta already read. */
export type DeltaItem = DeltaPayload | HistoryDeltaView;

export function historyDeltaStream(live: LiveBus, dialogId: string, afterSeq: number | null) {
  return stoppableStream<DeltaItem>(async function* (signal) {
    const updates = await live.listen("historyDelta", dialogId);
    onAbort(signal, () => updates.return?.());
    try {
      let sent = afterSeq ?? 0;
      // A status change read from the database may also arrive live: send each one once.
      const statusChangesSent = new Set<string>();
      // Reads what was committed after `sent` up to `upTo`, with the status changes from
      // `statusChangesFrom` on (status-only writes move no seq, so they are found by their own).
      async function* catchUp(upTo: number, statusChangesFrom: number | undefined = sent + 1) {
        for await (const delta of readDeltasBetween(dialogId, sent, upTo, statusChangesFrom)) {
          if (signal.aborted) return;
          if (delta.seq === delta.previousSeq) {
            if (statusChangesSent.has(statusKey(delta))) continue;
            statusChangesSent.add(statusKey(delta));
          }
          yield delta;
          sent = Math.max(sent, delta.seq);
        }
      }

      const lastSeq = async () =>
        (await prisma.dialog.findUnique({ where: { id: dialogId }, select: { lastSeq: true } }))?.lastSeq;
      const startSeq = await lastSeq();
      if (startSeq == null) return;
      if (afterSeq == null) sent = startSeq;
      // A client resuming at n may have missed a status change made at n itself: include it.
      yield* catchUp(startSeq, afterSeq ?? undefined);

      for await (const update of updates) {
        if (isResync(update)) {
          const upTo = await lastSeq();
          if (upTo == null) break; // the dialog was deleted
          yield* catchUp(upTo, sent);
          continue;
        }
        const statusOnly = update.seq === update.previousSeq;
        if (update.seq <= sent && !statusOnly) continue; // already sent
        // A gap before this write: read it from the database first.
        if (update.previousSeq > sent) yield* catchUp(update.previousSeq);
        if (statusOnly && statusChangesSent.has(statusKey(update))) continue;
        if (update.previousSeq === sent || (statusOnly && update.seq <= sent)) {
          if (statusOnly) statusChangesSent.add(statusKey(update));
          yield update;
          sent = Math.max(sent, update.seq);
        } else {
          // It overlaps what was sent (or the gap could not be read): read the part not yet sent.
          yield* catchUp(update.seq);
        }
      }
    } finally {
      await updates.return?.();
    }
  });
}

const statusKey = (delta: DeltaPayload) => `${delta.responseId}@${delta.seq}`;
