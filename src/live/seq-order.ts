// A dialog's payloads handed to its listeners in seq order, once per instance rather than once
// per subscriber. Writers publish after their commits, so two writers of one dialog (on this
// instance or another) often publish in the other order than they committed, and through Redis a
// later seq then arrives a moment before an earlier one. Each subscriber used to find that gap
// itself: it read the gap from the database (shared, src/live/gap-reads.ts), sent it through its
// own chain of promises, and then dropped the late payload as old — so with a hundred subscribers
// of a dialog that several writers share, most deltas took the slow way, and the direct lane that
// writes a delta to every caught-up subscriber in one loop (src/live/direct-delivery.ts) found
// nobody caught up. In the soak (bench/soak.ts) that was most of what an instance did.
//
// Here a payload whose previousSeq is past the last seq handed on waits, up to `holdMs`, for the
// ones before it; one that fills the gap is handed on at once, and what waited behind it follows
// in order. Whatever arrives while something waits (text, a status change, a clear) waits behind
// it too, so the publishing order of everything else is kept. A gap that is not filled in time (a
// payload lost: Redis blinked, a writer died between commit and publish) is handed on as it is,
// and the subscribers repair it from the database as before — the database stays the truth, this
// only makes the common case cheap. A resync or the dialog's deletion hands everything on first.

/**
 * Where a message stands: its seqs (a write, a clear, a deleted response), "after" what waits
 * (text), or "flush": everything waiting goes first, and with "resync" the position is forgotten
 * (the subscribers re-read from the database).
 */
export type Place = { previousSeq: number; seq: number } | "after" | "flush" | "resync";

export class SeqOrder<M> {
  /** The highest seq handed on (null until the first payload, and after a resync). */
  #handedOn: number | null = null;
  /** In arrival order; the first is a payload whose predecessors have not arrived. */
  #waiting: { message: M; place: Place }[] = [];
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly placeOf: (message: M) => Place,
    private readonly handOn: (message: M) => void,
    private readonly holdMs: number,
  ) {}

  receive(message: M) {
    const place = this.placeOf(message);
    if (typeof place === "string") {
      if (this.#waiting.length === 0 && place === "after") return this.handOn(message);
      if (place === "after") return void this.#waiting.push({ message, place });
      // A resync or the dialog's end: nothing before it is worth waiting for.
      this.#release();
      this.handOn(message);
      if (place === "resync") this.#handedOn = null;
      return;
    }
    if (this.#handedOn !== null && place.previousSeq > this.#handedOn) {
      this.#waiting.push({ message, place });
      this.#timer ??= setTimeout(() => this.#release(), this.holdMs);
      return;
    }
    // Next in order, or older than what was handed on (the subscribers drop what they have).
    this.#pass(message, place);
    this.#releaseInOrder();
  }

  /** `seq` was read as committed (by a listener, from the database): what follows it is next in order. */
  committedUpTo(seq: number) {
    if (this.#handedOn !== null && this.#handedOn >= seq) return;
    this.#handedOn = seq;
    this.#releaseInOrder();
  }

  /** Stops the timer; what waits is dropped (nobody listens any more). */
  close() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#waiting = [];
  }

  #pass(message: M, place: Place) {
    if (typeof place !== "string") this.#handedOn = Math.max(this.#handedOn ?? place.seq, place.seq);
    this.handOn(message);
  }

  /** Hands on what waits from the front while it follows what was handed on. */
  #releaseInOrder() {
    let next = 0;
    for (; next < this.#waiting.length; next++) {
      const { message, place } = this.#waiting[next]!;
      if (typeof place !== "string" && this.#handedOn !== null && place.previousSeq > this.#handedOn) break;
      this.#pass(message, place);
    }
    if (next === 0) return;
    this.#waiting = this.#waiting.slice(next);
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = this.#waiting.length ? setTimeout(() => this.#release(), this.holdMs) : null;
  }

  /** Hands on everything that waits, gaps and all. */
  #release() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const { message, place } of waiting) this.#pass(message, place);
  }
}
