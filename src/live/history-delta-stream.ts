// historyDelta's stream: everything committed after `afterSeq`, then live, each seq exactly once
// and in order. The listener is in place before the database is read, so a write committing
// while the replay runs is either in the replay or arrives live (or both: the duplicate is
// dropped by seq). Live payloads can arrive out of order (two writers publish after their
// commits, in either order) or not at all (a slow subscriber's buffer overflowed, Redis blinked):
// a payload whose previousSeq is past what was sent shows a gap, which is read from the database
// (once for every subscriber lacking the same span: src/live/gap-reads.ts).
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
  readDialogPosition,
  responseDeletedDelta,
  type WriteDeltaView,
} from "./delta-reads.js";
import { type CatchUpRead, readCatchUp, type ReadThrough } from "./catch-up-reads.js";
import { MAX_SHARED_GAP, readGap } from "./gap-reads.js";
import type { Store } from "../store/store.js";
import type { InFlightState } from "../vocabulary/in-flight.js";
import {
  type ClearedPayload,
  type DeltaPayload,
  isCleared,
  isDeleted,
  isResponseDeleted,
  isResync,
  isText,
  type Listener,
  type LiveBus,
  type LiveMessage,
  type ResponseDeletedPayload,
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
      const texts = new TextPositions(textOffsets, updates.endedTexts);
      const history = new SentHistory(store, dialogId, afterSeq ?? 0, texts, signal);
      const textsOfDialog = (id: string) => inFlight.textsOfDialog(id);
      // Read after the listener is in place, so it misses nothing: text it shows that a write
      // committed meanwhile is dropped by that write (onCommitted).
      const start = await readCatchUp(store, dialogId, afterSeq, textsOfDialog, undefined, startUpReads);
      if (!start.dialog) return;
      updates.committedUpTo(start.dialog.lastSeq);
      if (afterSeq == null) history.startsLiveAt(start.dialog);
      // A client resuming at n may have missed a status change or a clear made at n itself:
      // include them. A client starting live has nothing from before to clear.
      yield* history.catchUpWith(start, afterSeq ?? undefined);
      // Caught up (waiting in the loop below with nothing queued): the next write in order, and
      // text that continues what the subscriber has, can go straight to the socket with every
      // other caught-up subscriber's (src/live/direct-delivery.ts). Anything else (a gap, a
      // duplicate, a status-only write, text after a gap or seen already, a clear) takes the loop.
      if (lane) takeDirectly(updates, lane, signal, history);
      onLive?.();

      for await (const update of updates) {
        if (isResync(update)) {
          const shared = await readCatchUp(store, dialogId, history.sent, textsOfDialog, update, resyncReads);
          if (!shared.dialog) break; // the dialog was deleted
          updates.committedUpTo(shared.dialog.lastSeq);
          yield* history.catchUpWith(shared, history.sent);
          continue;
        }
        if (isDeleted(update)) break;
        if (isText(update)) {
          const view = history.texts.onText(update.text, history.sent);
          if (view === "gap") {
            const state = await inFlight.textOf(update.text.responseId);
            if (state && !signal.aborted) yield* history.texts.fromSnapshot([state], history.sent);
          } else if (view) yield view;
          continue;
        }
        yield* history.onPublished(update);
      }
    } finally {
      await updates.return?.();
    }
  });
}

/**
 * What one subscriber of a dialog was sent so far (the seq, the status changes, the clears, the
 * finishes shown, the in-flight texts' positions), and sending it what it lacks of a catch-up read
 * or of a payload published on the bus.
 */
class SentHistory {
  /** The seq the subscriber has everything up to. */
  sent: number;
  // A status change read from the database may also arrive live: send each one once.
  readonly #statusChangesSent = new Set<string>();
  readonly #finishes = new FinishesShown();
  readonly #clearsSent = new Set<number>();

  constructor(
    private readonly store: Store,
    private readonly dialogId: string,
    sent: number,
    readonly texts: TextPositions,
    private readonly signal: StopSignal,
  ) {
    this.sent = sent;
  }

  /** Starting live, at the dialog's seq: a clear from before is not news. */
  startsLiveAt(dialog: { lastSeq: number; clearedAtSeq: number | null }) {
    this.sent = dialog.lastSeq;
    if (dialog.clearedAtSeq != null) this.#clearsSent.add(dialog.clearedAtSeq);
  }

  /** Whether status-only `delta` shows nothing new: sent already, or its finish shown with the write. */
  shownAlready(delta: DeltaPayload) {
    return this.#statusChangesSent.has(statusKey(delta)) || this.#finishes.has(delta);
  }

  /** A write sent by the direct lane (takeDirectly), counted once written. */
  shownDirectly(delta: DeltaPayload) {
    this.texts.onCommitted(delta, true);
    this.#finishes.onSent(delta);
    this.sent = delta.seq;
  }

  /** A catch-up read (the start's or a resync's): its writes from `statusChangesFrom` on, then its open texts. */
  async *catchUpWith(read: CatchUpRead, statusChangesFrom: number | undefined) {
    const { lastSeq, clearedAtSeq } = read.dialog!;
    yield* this.catchUp(lastSeq, statusChangesFrom, clearedAtSeq, read.deltas ?? undefined);
    if (!this.signal.aborted) yield* this.texts.fromSnapshot(read.texts, this.sent);
  }

  /**
   * Reads what was committed after `sent` up to `upTo`, with the status changes from
   * `statusChangesFrom` on (status-only writes move no seq, so they are found by their own), and,
   * when `clearedAtSeq` falls in that span, the clear first (the events before it are gone).
   */
  async *catchUp(
    upTo: number,
    statusChangesFrom: number | undefined = this.sent + 1,
    clearedAtSeq: number | null | undefined = undefined,
    /** The deltas of that span, read already (shared by the subscribers of a resync). */
    readAlready?: WriteDeltaView[],
  ): AsyncGenerator<DeltaItem> {
    // A short gap (payloads published out of order) is read once for every subscriber lacking it.
    const gap =
      clearedAtSeq === undefined && !readAlready && upTo - this.sent <= MAX_SHARED_GAP
        ? await readGap(this.store, this.dialogId, this.sent, upTo, statusChangesFrom)
        : undefined;
    const cleared = gap
      ? gap.clearedAtSeq
      : clearedAtSeq === undefined
        ? (await this.#readDialog())?.clearedAtSeq
        : clearedAtSeq;
    if (cleared != null && cleared >= this.sent && cleared <= upTo && !this.#clearsSent.has(cleared)) {
      yield this.#clearAt(cleared);
    }
    const deltas =
      readAlready ?? gap?.deltas ?? readDeltasBetween(this.store, this.dialogId, this.sent, upTo, statusChangesFrom);
    for await (const delta of deltas) {
      if (this.signal.aborted) return;
      if (delta.seq === delta.previousSeq) {
        if (this.shownAlready(delta)) continue;
        this.#statusChangeSent(delta);
      }
      this.texts.onCommitted(delta);
      yield delta;
      this.#finishes.onSent(delta);
      this.sent = Math.max(this.sent, delta.seq);
    }
  }

  /** A payload published on the bus for a write, a clear or a response's deletion (not text, not a resync). */
  async *onPublished(update: DeltaPayload | ClearedPayload | ResponseDeletedPayload): AsyncGenerator<DeltaItem> {
    if (isCleared(update)) {
      // The events between what was sent and the clear are gone: nothing to repair.
      if (!this.#clearsSent.has(update.seq)) yield this.#clearAt(update.seq);
      return;
    }
    if (isResponseDeleted(update)) {
      // Sent as it comes (a deletion moves no seq, so there is no gap to read before it); a
      // subscriber that was away when it happened re-reads a page of history to notice it.
      this.texts.onResponseDeleted(update.responseId);
      yield responseDeletedDelta(update);
      return;
    }
    this.texts.onCommitted(update, true);
    const statusOnly = update.seq === update.previousSeq;
    if (update.seq <= this.sent && !statusOnly) return; // already sent
    // A gap before this write: read it from the database first.
    if (update.previousSeq > this.sent) yield* this.catchUp(update.previousSeq);
    if (statusOnly && this.shownAlready(update)) return;
    if (update.previousSeq === this.sent || (statusOnly && update.seq <= this.sent)) {
      if (statusOnly) this.#statusChangeSent(update);
      yield update;
      this.#finishes.onSent(update);
      this.sent = Math.max(this.sent, update.seq);
    } else {
      // It overlaps what was sent (or the gap could not be read): read the part not yet sent.
      yield* this.catchUp(update.seq);
    }
  }

  #statusChangeSent(delta: DeltaPayload) {
    // Only the latest are kept: a status change read back and its payload arrive moments apart,
    // and a subscriber of a busy dialog sees thousands a minute.
    this.#statusChangesSent.add(statusKey(delta));
    if (this.#statusChangesSent.size > 1_000)
      this.#statusChangesSent.delete(this.#statusChangesSent.values().next().value!);
  }

  #clearAt(seq: number) {
    this.#clearsSent.add(seq);
    this.texts.onCleared();
    this.sent = Math.max(this.sent, seq);
    return clearedDelta(this.dialogId, seq);
  }

  #readDialog() {
    return readDialogPosition(this.store, this.dialogId);
  }
}

const statusKey = (delta: DeltaPayload) => `${delta.responseId}@${delta.seq}`;

/**
 * Offers the listener's payloads that find the stream caught up to its direct lane. A committed
 * write is executed as published; a text delta as this subscriber's view of it (the same object
 * for every subscriber at the same seq, so still one execution for all of them). Either is counted
 * as sent only once written; one handed back returns to the queue as it was published.
 */
function takeDirectly(updates: Listener, lane: DirectLane, signal: StopSignal, history: SentHistory) {
  const { texts } = history;
  // One delivery object per subscription, reused: the lane holds at most one payload at a time.
  let published: LiveMessage;
  let release: (handBack?: LiveMessage) => void = () => undefined;
  const delivery: DirectDelivery<DeltaPayload | TextDeltaView> = {
    payload: undefined as never,
    wanted: () => !signal.aborted,
    accepted: () => {
      if (isText(published)) return texts.took(published.text);
      history.shownDirectly(published as DeltaPayload);
    },
    // What goes back to the queue is the published message (for text, not the view executed).
    release: (handBack) => release(handBack === undefined ? undefined : published),
  };
  updates.takeDirectly((update, releaseQueue) => {
    if (signal.aborted || isResync(update) || isDeleted(update) || isCleared(update)) return false;
    if (isResponseDeleted(update)) return false;
    if (isText(update)) {
      if (!texts.followsSent(update.text)) return false;
      const view = texts.viewOfText(update.text, history.sent);
      if (view === null || view === "gap") return false;
      delivery.payload = view;
    } else {
      if (update.previousSeq !== history.sent || update.seq === update.previousSeq) return false;
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
  // Almost always one response: an array emptied in place allocates nothing per delta.
  private readonly responses: string[] = [];

  onSent(delta: DeltaPayload | HistoryDeltaView) {
    if (delta.status == null || delta.status === "IN_PROGRESS" || delta.responseId == null) return;
    // Read back, a delta's status is its response's now: it finished at its own seq, or later.
    const at = "response" in delta && delta.response?.finishedAtSeq != null ? delta.response.finishedAtSeq : delta.seq;
    if (at < this.at) return;
    if (at > this.at) this.responses.length = 0;
    this.at = at;
    if (!this.responses.includes(delta.responseId)) this.responses.push(delta.responseId);
  }

  /** Status-only `delta` is the finish of a response shown final at its seq. */
  has(delta: DeltaPayload) {
    return delta.seq === this.at && delta.status !== "IN_PROGRESS" && this.responses.includes(delta.responseId);
  }
}
