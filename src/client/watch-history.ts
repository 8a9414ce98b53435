// watchHistory: a dialog's history (the context of its head, or of a pinned response) that stays
// equal to the server's. It reads a snapshot, subscribes to historyDelta after the snapshot's seq,
// and applies each delta. After a dropped connection it resumes from the last seq it holds; when
// a delta does not fit what it holds (a gap, a write to an earlier response, the head moving to
// another branch) it reads the history again rather than guess.
import { applyHistoryDelta, type SeqEvent } from "./apply-history-delta.js";
import type { HistoryDeltaSubscription } from "./generated/graphql.js";
import { applyTextDelta, endInFlightText, textOffsetsOf } from "./in-flight-text.js";
import type { HistoryDelta, HistoryState, HistoryWatcher, WatchHistoryOptions } from "./history-watcher.js";
import { DialogLastSeqDocument } from "./operations/queries.js";
import { HistoryDeltaDocument } from "./operations/subscriptions.js";
import {
  type HistoryEvent,
  type HistorySnapshot,
  readEarlierEvents,
  readHistorySnapshot,
} from "./read-history-snapshot.js";
import { asError, defaultRetryDelay, HEALTHY_SUBSCRIPTION_MS, isRefusalClose } from "./reconnect-policy.js";
import { DialogqlError, dataOf, errorCode, type ExecutionResult, type Transport } from "./transport.js";
import { placeWrite, type WrittenDelta } from "./write-placement.js";

export function followHistory(
  transport: Transport,
  dialogId: string,
  options: WatchHistoryOptions = {},
  onClose?: () => void,
): HistoryWatcher {
  return new HistoryFollower(transport, dialogId, options, onClose);
}

class HistoryFollower implements HistoryWatcher {
  state: HistoryState;
  private readonly listeners = new Set<(state: HistoryState) => void>();
  private readonly pinned: string | null;
  private eventIds = new Set<string>();
  // Responses whose events are in the list, and the tip: a write to one of them changes the list.
  private chain = new Set<string>();
  // Deltas, drops and re-reads run one at a time, in arrival order.
  private queue: Promise<void> = Promise.resolve();
  private subscription: { generation: number; end: () => void; startedAt: number } | null = null;
  private generation = 0;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  // With a tail: where the events not read yet end, and the read of them under way.
  private startCursor: string | null = null;
  private loadingEarlier: Promise<void> | null = null;

  constructor(
    private readonly transport: Transport,
    dialogId: string,
    private readonly options: WatchHistoryOptions,
    private readonly onClose?: () => void,
  ) {
    this.pinned = options.responseId || null;
    this.state = {
      dialogId,
      status: "loading",
      responseId: this.pinned,
      events: [],
      responses: {},
      inFlight: {},
      lastSeq: 0,
      error: null,
      earlier: 0,
    };
    if (options.onChange) this.listeners.add(options.onChange);
    this.enqueue(() => this.restart());
  }

  onChange(listener: (state: HistoryState) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  until(test: (state: HistoryState) => boolean, timeoutMs = 10_000): Promise<HistoryState> {
    if (test(this.state)) return Promise.resolve(this.state);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`watchHistory: condition not met within ${timeoutMs} ms (status ${this.state.status})`));
      }, timeoutMs);
      const stop = this.onChange((state) => {
        if (test(state)) resolve(state);
        else if (state.status === "closed") reject(new Error("watchHistory: closed"));
        else return;
        clearTimeout(timer);
        stop();
      });
    });
  }

  loadEarlier(count: number): Promise<void> {
    if (this.loadingEarlier) return this.loadingEarlier;
    this.enqueue(() => this.readEarlier(count));
    // The queue settles whether the read worked or not (a failure is handled as any other).
    const done = this.queue.then(() => void (this.loadingEarlier = null));
    this.loadingEarlier = done;
    return done;
  }

  close() {
    if (this.state.status === "closed") return;
    this.endSubscription();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.update({ status: "closed" });
    this.listeners.clear();
    this.onClose?.();
  }

  private get stopped() {
    return this.state.status === "closed" || this.state.status === "not-found";
  }

  private enqueue(task: () => Promise<void>) {
    this.queue = this.queue.then(() => (this.stopped ? undefined : task())).catch((error) => this.failed(error));
  }

  /** Reads everything again, then follows from there. */
  private async restart() {
    await this.resync();
    this.openSubscription();
  }

  /** After a drop: checks the server is back and still has what we hold, then resumes. */
  private async resume() {
    const { dialog } = dataOf(await this.transport.execute(DialogLastSeqDocument, { id: this.state.dialogId }));
    // The dialog's seq went backwards (restored database): what we hold is no longer true.
    if (!dialog || dialog.lastSeq < this.state.lastSeq) return this.restart();
    this.openSubscription();
  }

  private async resync() {
    const { tail } = this.options;
    // A re-read keeps what was on screen: as many events as were held.
    const snapshot = await readHistorySnapshot(this.transport, this.state.dialogId, this.pinned, {
      tail: tail == null ? null : Math.max(tail, this.state.events.length),
    });
    this.adopt(snapshot);
  }

  /** Puts `count` more earlier events before those held (a no-op when there are none). */
  private async readEarlier(count: number) {
    const tip = this.state.responseId;
    if (!tip || !this.startCursor || this.state.earlier === 0) return;
    const responses = { ...this.state.responses };
    const from = { cursor: this.startCursor, held: this.state.events.length };
    // Deltas wait in the queue meanwhile, so what is read fits before what is held.
    const read = await readEarlierEvents(this.transport, this.state.dialogId, tip, from, count, responses);
    const fresh = read.events.filter((event) => !this.eventIds.has(event.id));
    for (const event of fresh) this.eventIds.add(event.id);
    for (const id of Object.keys(responses)) this.chain.add(id);
    this.startCursor = read.startCursor;
    this.update({ events: [...fresh, ...this.state.events], responses, earlier: read.earlier });
  }

  private adopt(snapshot: HistorySnapshot) {
    this.eventIds = new Set(snapshot.events.map((event) => event.id));
    this.chain = new Set(Object.keys(snapshot.responses));
    this.startCursor = snapshot.startCursor;
    this.update({
      earlier: snapshot.earlier,
      responseId: snapshot.tip?.id ?? null,
      events: snapshot.events,
      responses: snapshot.responses,
      // The subscription opened next sends each text whole: what was held may have been committed.
      inFlight: {},
      lastSeq: Math.max(snapshot.lastSeq, this.state.lastSeq),
    });
  }

  private openSubscription() {
    this.endSubscription();
    const generation = ++this.generation;
    const current = () => this.subscription?.generation === generation;
    const end = this.transport.subscribe(
      HistoryDeltaDocument,
      // With the text it holds, so a resumed subscription sends only the rest of it.
      { dialogId: this.state.dialogId, afterSeq: this.state.lastSeq, textOffsets: textOffsetsOf(this.state.inFlight) },
      {
        next: (result) => this.enqueue(async () => (current() ? this.received(result) : undefined)),
        error: (error) => this.enqueue(async () => (current() ? this.dropped(error) : undefined)),
        complete: () => this.enqueue(async () => (current() ? this.dropped(null) : undefined)),
      },
    );
    this.subscription = { generation, end, startedAt: Date.now() };
    this.update({ status: "live", error: null });
  }

  private endSubscription() {
    const subscription = this.subscription;
    this.subscription = null;
    subscription?.end();
  }

  private async received(result: ExecutionResult<HistoryDeltaSubscription>) {
    if (result.errors?.length) {
      const code = errorCode(result.errors);
      // afterSeq past the dialog's seq: the server lost writes we saw; start over from its state.
      if (code === "VALIDATION_ERROR") return this.restartAfterError(result.errors[0]!.message);
      return this.failed(new DialogqlError(result.errors));
    }
    if (!result.data) return;
    this.attempts = 0;
    await this.apply(result.data.historyDelta);
  }

  private async restartAfterError(message: string) {
    this.endSubscription();
    this.update({ error: new Error(message) });
    await this.restart();
  }

  private async apply(delta: HistoryDelta) {
    if (delta.text) return this.type(delta.text);
    // A deleted response (DELETE /v1/responses/{id}) may have been the head or on the chain:
    // read the dialog again rather than guess what is left.
    if (delta.responseDeleted) return this.resync();
    const inFlight = { ...this.state.inFlight };
    const ended =
      delta.responseId != null &&
      delta.status != null &&
      endInFlightText(inFlight, {
        responseId: delta.responseId,
        status: delta.status,
        endsTextPart: delta.endsTextPart,
      });
    if (!ended) return this.applyCommitted(delta);
    // The text goes in the same state change that brings the event replacing it: never a state
    // with both, or with neither.
    const updates = this.updates;
    this.state = { ...this.state, inFlight };
    await this.applyCommitted(delta);
    if (this.updates === updates) this.update({});
  }

  private async applyCommitted(delta: HistoryDelta) {
    const { lastSeq, responseId: tip } = this.state;
    // Whether the delta continues what the watcher has seen is applyHistoryDelta's rule, applied
    // to the dialog-wide seq (deltas of every branch arrive); which list its events join, if any,
    // is decided below.
    const seen: SeqEvent[] = [{ seq: lastSeq }];
    const outcome = applyHistoryDelta(seen, delta);
    if (outcome.status === "cleared") return this.cleared(outcome.lastSeq);
    // Something between what we hold and this delta never reached us: read it from the server.
    if (outcome.status === "gap") return this.resync();
    if (outcome.status === "duplicate") return;
    // Every delta but a clear names its response.
    if (delta.responseId == null || delta.response == null) return this.resync();
    const write = delta as WrittenDelta;
    const position = { lastSeq: outcome.lastSeq };
    // By id too: a snapshot may already hold events of deltas after its lastSeq.
    const fresh = (seen.slice(1) as HistoryEvent[]).filter((event) => !this.eventIds.has(event.id));

    const held = { tip, pinned: Boolean(this.pinned), chain: this.chain, responses: this.state.responses };
    const placement = placeWrite(held, write, fresh.length > 0);
    if (placement === "extend") return this.extend(write, fresh, position);
    if (placement === "reread") return this.resync();
    if (placement === "response")
      return this.update({ ...position, responses: { ...this.state.responses, [write.responseId]: write.response } });
    this.update(position);
  }

  /** A text delta: extends the response's in-flight text; a gap is filled by resubscribing. */
  private type(text: NonNullable<HistoryDelta["text"]>) {
    const inFlight = { ...this.state.inFlight };
    const outcome = applyTextDelta(inFlight, text);
    if (outcome.status === "applied") return this.update({ inFlight });
    if (outcome.status === "gap") this.openSubscription();
  }

  /** The dialog was cleared at `seq`: nothing is left to show (a pinned response is gone: read again to say so). */
  private async cleared(seq: number) {
    if (this.pinned) return this.resync();
    this.eventIds = new Set();
    this.chain = new Set();
    this.startCursor = null;
    this.update({ lastSeq: seq, responseId: null, events: [], responses: {}, inFlight: {}, earlier: 0 });
  }

  private extend(delta: WrittenDelta, fresh: HistoryEvent[], position: { lastSeq: number }) {
    for (const event of fresh) this.eventIds.add(event.id);
    this.chain.add(delta.responseId);
    this.update({
      ...position,
      responseId: delta.responseId,
      events: fresh.length ? [...this.state.events, ...fresh] : this.state.events,
      responses: { ...this.state.responses, [delta.responseId]: delta.response },
    });
  }

  private async dropped(error: unknown) {
    if (isRefusalClose(error)) return this.failed(error);
    const lived = Date.now() - (this.subscription?.startedAt ?? Date.now());
    this.endSubscription();
    if (lived > HEALTHY_SUBSCRIPTION_MS) this.attempts = 0;
    this.retryLater(() => this.resume(), asError(error ?? "the subscription ended"));
  }

  /** Any failure: not found and a refused caller are final, anything else is retried from a fresh read. */
  private failed(error: unknown) {
    if (this.state.status === "closed") return;
    const code = errorCode((error as { errors?: [] }).errors);
    if (code === "NOT_FOUND" || code === "UNAUTHENTICATED" || isRefusalClose(error)) {
      this.endSubscription();
      return this.update({ status: code === "NOT_FOUND" ? "not-found" : "unauthenticated", error: asError(error) });
    }
    this.endSubscription();
    this.retryLater(() => this.restart(), asError(error));
  }

  private retryLater(task: () => Promise<void>, error: Error) {
    if (this.stopped) return;
    this.update({ status: "reconnecting", error });
    const delay = (this.options.retryDelay ?? defaultRetryDelay)(++this.attempts);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.enqueue(task);
    }, delay);
  }

  private updates = 0;

  private update(patch: Partial<HistoryState>) {
    this.updates++;
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener(this.state);
  }
}
