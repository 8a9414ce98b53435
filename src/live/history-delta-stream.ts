// historyDelta's stream: everything committed after `afterSeq`, then live, each seq exactly once
// and in order. The listener is in place before the database is read, so a write committing
// while the replay runs is either in the replay or arrives live (or both: the duplicate is
// dropped by seq). Live payloads can arrive out of order (two writers publish after their
// commits, in either order) or not at all (a slow subscriber's buffer overflowed, Redis blinked):
// a payload whose previousSeq is past what was sent shows a gap, which is read from the database.
// The start and a resync (Redis came back after an outage) read everything committed since what
// was sent in reads shared with the dialog's other subscribers at the same seq
// (src/live/catch-up-reads.ts).
// In-flight text (src/history-writes/) follows the replay: the text so far, then live text
// deltas, each character once (src/live/text-positions.ts).
// A clear (clearDialog) moves no seq: it is sent once, as a cleared delta at the dialog's seq, and
// a catch-up that spans one (the dialog's clearedAtSeq) sends it before the events after it.
import {
  clearedDelta,
  type HistoryDeltaView,
  readDeltasBetween,
  responseDeletedDelta,
  type WriteDeltaView,
} from "./delta-reads.js";
import { readCatchUp, type ReadThrough } from "./catch-up-reads.js";
import type { Store } from "../store/store.js";
import type { InFlightState } from "../vocabulary/in-flight.js";
import {
  type DeltaPayload,
  isCleared,
  isDeleted,
  isResponseDeleted,
  isResync,
  isText,
  type Listener,
  type LiveBus,
  type LiveMessage,
} from "./live-bus.js";
import { onAbort, type StopSignal, stoppableStream } from "./stoppable-stream.js";
import type { DirectDelivery, DirectLane } from "./direct-delivery.js";
import { type TextDeltaView, type TextOffset, TextPositions } from "./text-positions.js";

/** A payload still to be read (resolved in the schema), or a delta already read. */
export type DeltaItem = DeltaPayload | HistoryDeltaView | TextDeltaView;

/** What the stream reads of the text being typed (src/history-writes/ holds it). */
export interface InFlightTexts {
  textOf(responseId: string): Promise<InFlightState | null>;
  textsOfDialog(dialogId: string): Promise<InFlightState[]>;
}

export interface HistoryStreamOptions {
  /** How much of each in-flight text the subscriber has. */
  textOffsets?: readonly TextOffset[];
  /** The subscription's direct lane (src/live/direct-delivery.ts). */
  lane?: DirectLane;
  /** Called once the start-up reads are done and sent, as the stream waits for live payloads. */
  onLive?: () => void;
  /** Where the start-up catch-up read runs (the tenant's share of the pool, within the request's time). */
  startUpReads?: ReadThrough;
  /** Where a resync's catch-up read runs (the tenant's share of the pool). */
  resyncReads?: ReadThrough;
}

export function historyDeltaStream(
  store: Store,
  live: LiveBus,
  inFlight: InFlightTexts,
  dialogId: string,
  afterSeq: number | null,
  { textOffsets = [], lane, onLive, startUpReads, resyncReads }: HistoryStreamOptions = {},
) {
  return stoppableStream<DeltaItem>(async function* (signal) {
    const updates = await live.listen("historyDelta", dialogId);
    onAbort(signal, () => updates.return?.());
    try {
      let sent = afterSeq ?? 0;
      // A status change read from the database may also arrive live: send each one once.
      const statusChangesSent = new Set<string>();
      const finishes = new FinishesShown();
      /** Whether status-only `delta` shows nothing new: sent already, or its finish shown with the write. */
      const shownAlready = (delta: DeltaPayload) => statusChangesSent.has(statusKey(delta)) || finishes.has(delta);
      const texts = new TextPositions(textOffsets);
      const clearsSent = new Set<number>();
      const clearAt = (seq: number) => {
        clearsSent.add(seq);
        texts.onCleared();
        sent = Math.max(sent, seq);
        return clearedDelta(dialogId, seq);
      };
      // Reads what was committed after `sent` up to `upTo`, with the status changes from
      // `statusChangesFrom` on (status-only writes move no seq, so they are found by their own),
      // and, when `clearedAtSeq` falls in that span, the clear first (the events before it are gone).
      async function* catchUp(
        upTo: number,
        statusChangesFrom: number | undefined = sent + 1,
        clearedAtSeq: number | null | undefined = undefined,
        /** The deltas of that span, read already (shared by the subscribers of a resync). */
        readAlready?: WriteDeltaView[],
      ) {
        const cleared = clearedAtSeq === undefined ? (await readDialog())?.clearedAtSeq : clearedAtSeq;
        if (cleared != null && cleared >= sent && cleared <= upTo && !clearsSent.has(cleared)) {
          yield clearAt(cleared);
        }
        for await (const delta of readAlready ?? readDeltasBetween(store, dialogId, sent, upTo, statusChangesFrom)) {
          if (signal.aborted) return;
          if (delta.seq === delta.previousSeq) {
            if (shownAlready(delta)) continue;
            statusChangesSent.add(statusKey(delta));
          }
          texts.onCommitted(delta);
          yield delta;
          finishes.onSent(delta);
          sent = Math.max(sent, delta.seq);
        }
      }

      const readDialog = () =>
        store.prisma.dialog.findUnique({ where: { id: dialogId }, select: { lastSeq: true, clearedAtSeq: true } });
      const textsOfDialog = (id: string) => inFlight.textsOfDialog(id);
      // Read after the listener is in place, so it misses nothing: text it shows that a write
      // committed meanwhile is dropped by that write (onCommitted).
      const start = await readCatchUp(store, dialogId, afterSeq, textsOfDialog, undefined, startUpReads);
      if (!start.dialog) return;
      if (afterSeq == null) {
        sent = start.dialog.lastSeq;
        // Starting live: a clear from before is not news.
        if (start.dialog.clearedAtSeq != null) clearsSent.add(start.dialog.clearedAtSeq);
      }
      // A client resuming at n may have missed a status change or a clear made at n itself:
      // include them. A client starting live has nothing from before to clear.
      const { lastSeq, clearedAtSeq } = start.dialog;
      yield* catchUp(lastSeq, afterSeq ?? undefined, clearedAtSeq, start.deltas ?? undefined);
      if (!signal.aborted) yield* texts.fromSnapshot(start.texts, sent);
      // Caught up (waiting in the loop below with nothing queued): the next write in order, and
      // text that continues what the subscriber has, can go straight to the socket with every
      // other caught-up subscriber's (src/live/direct-delivery.ts). Anything else (a gap, a
      // duplicate, a status-only write, text after a gap or seen already, a clear) takes the loop.
      if (lane) {
        const shown = (delta: DeltaPayload) => {
          finishes.onSent(delta);
          sent = delta.seq;
        };
        takeDirectly(updates, lane, signal, texts, () => sent, shown);
      }
      onLive?.();

      for await (const update of updates) {
        if (isResync(update)) {
          const shared = await readCatchUp(store, dialogId, sent, textsOfDialog, update, resyncReads);
          if (!shared.dialog) break; // the dialog was deleted
          yield* catchUp(shared.dialog.lastSeq, sent, shared.dialog.clearedAtSeq, shared.deltas ?? undefined);
          if (!signal.aborted) yield* texts.fromSnapshot(shared.texts, sent);
          continue;
        }
        if (isDeleted(update)) break;
        if (isCleared(update)) {
          // The events between what was sent and the clear are gone: nothing to repair.
          if (!clearsSent.has(update.seq)) yield clearAt(update.seq);
          continue;
        }
        if (isResponseDeleted(update)) {
          // Sent as it comes (a deletion moves no seq, so there is no gap to read before it); a
          // subscriber that was away when it happened re-reads a page of history to notice it.
          texts.onResponseDeleted(update.responseId);
          yield responseDeletedDelta(update);
          continue;
        }
        if (isText(update)) {
          const view = texts.onText(update.text, sent);
          if (view === "gap") {
            const state = await inFlight.textOf(update.text.responseId);
            if (state && !signal.aborted) yield* texts.fromSnapshot([state], sent);
          } else if (view) yield view;
          continue;
        }
        texts.onCommitted(update);
        const statusOnly = update.seq === update.previousSeq;
        if (update.seq <= sent && !statusOnly) continue; // already sent
        // A gap before this write: read it from the database first.
        if (update.previousSeq > sent) yield* catchUp(update.previousSeq);
        if (statusOnly && shownAlready(update)) continue;
        if (update.previousSeq === sent || (statusOnly && update.seq <= sent)) {
          if (statusOnly) statusChangesSent.add(statusKey(update));
          yield update;
          finishes.onSent(update);
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

/**
 * Offers the listener's payloads that find the stream caught up to its direct lane. A committed
 * write is executed as published; a text delta as this subscriber's view of it (the same object
 * for every subscriber at the same seq, so still one execution for all of them). Either is counted
 * as sent only once written; one handed back returns to the queue as it was published.
 */
function takeDirectly(
  updates: Listener,
  lane: DirectLane,
  signal: StopSignal,
  texts: TextPositions,
  sentNow: () => number,
  shown: (delta: DeltaPayload) => void,
) {
  // One delivery object per subscription, reused: the lane holds at most one payload at a time.
  let published: LiveMessage;
  let release: (handBack?: LiveMessage) => void = () => undefined;
  const delivery: DirectDelivery<DeltaPayload | TextDeltaView> = {
    payload: undefined as never,
    wanted: () => !signal.aborted,
    accepted: () => {
      if (isText(published)) return texts.took(published.text);
      texts.onCommitted(published as DeltaPayload);
      shown(published as DeltaPayload);
    },
    // What goes back to the queue is the published message (for text, not the view executed).
    release: (handBack) => release(handBack === undefined ? undefined : published),
  };
  updates.takeDirectly((update, releaseQueue) => {
    if (signal.aborted || isResync(update) || isDeleted(update) || isCleared(update)) return false;
    if (isResponseDeleted(update)) return false;
    if (isText(update)) {
      if (!texts.followsSent(update.text)) return false;
      const view = texts.viewOfText(update.text, sentNow());
      if (view === null || view === "gap") return false;
      delivery.payload = view;
    } else {
      if (update.previousSeq !== sentNow() || update.seq === update.previousSeq) return false;
      delivery.payload = update;
    }
    published = update;
    release = releaseQueue;
    return lane.deliver(delivery);
  });
}

/**
 * The responses whose final status the subscriber was shown, at the latest seq one finished at. A
 * write that adds a response's last events and finishes it shows both in one delta; a catch-up
 * from that seq (a resync after Redis came back, with nothing written since) still reads the
 * finish as a status change at it (readDeltasBetween: finished at `statusChangesFrom`, no event
 * after it), which would send that seq a second time. Only the latest seq is kept: a catch-up
 * reads status changes from the seq sent on, and the seq sent is at least every finish shown (but
 * for a finish read back with events from before it, which only makes an earlier one forgotten:
 * at worst sent twice, as before).
 */
class FinishesShown {
  private at = -1;
  private readonly responses = new Set<string>();

  onSent(delta: DeltaPayload | HistoryDeltaView) {
    if (delta.status == null || delta.status === "IN_PROGRESS" || delta.responseId == null) return;
    // Read back, a delta's status is its response's now: it finished at its own seq, or later.
    const at = "response" in delta && delta.response?.finishedAtSeq != null ? delta.response.finishedAtSeq : delta.seq;
    if (at < this.at) return;
    if (at > this.at) this.responses.clear();
    this.at = at;
    this.responses.add(delta.responseId);
  }

  /** Status-only `delta` is the finish of a response shown final at its seq. */
  has(delta: DeltaPayload) {
    return delta.seq === this.at && delta.status !== "IN_PROGRESS" && this.responses.has(delta.responseId);
  }
}
