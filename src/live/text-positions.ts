// What one historyDelta subscriber has of each in-flight text, so that it gets every character
// once: the text so far when it joins (from the offset it resumed with), then live deltas, trimmed
// where they overlap what it has, and a re-read of the text so far when one went missing.
import type { Response } from "../generated/prisma/client.js";
import { eventCountOf } from "../vocabulary/event-counts.js";
import type { InFlightState } from "../vocabulary/in-flight.js";
import { EndedTexts } from "./ended-texts.js";
import type { DeltaPayload, TextPayload } from "./live-bus.js";

/** A text-only delta as the schema shows it: it moves no seq (seq = previousSeq = what was sent). */
export interface TextDeltaView {
  dialogId: string;
  responseId: string;
  previousSeq: number;
  seq: number;
  status: "IN_PROGRESS";
  cleared: false;
  events: [];
  text: TextPayload;
}

/** Where a client is in one in-flight text (historyDelta's `textOffsets`). */
export interface TextOffset {
  responseId: string;
  part: number;
  offset: number;
}

// Subscribers at the same seq get the same view object for a live payload, so the shared
// execution of subscription results (src/server/shared-subscription-results.ts) still runs once.
const viewsOfPayload = new WeakMap<TextPayload, Map<number, TextDeltaView>>();

function viewOf(text: TextPayload, sent: number): TextDeltaView {
  let views = viewsOfPayload.get(text);
  if (!views) viewsOfPayload.set(text, (views = new Map()));
  let view = views.get(sent);
  if (!view) {
    view = {
      dialogId: text.dialogId,
      responseId: text.responseId,
      previousSeq: sent,
      seq: sent,
      status: "IN_PROGRESS",
      cleared: false,
      events: [],
      text,
    };
    views.set(sent, view);
  }
  return view;
}

export class TextPositions {
  /** responseId → the part this subscriber is being sent and how much of it it has. */
  readonly #has = new Map<string, { part: number; length: number }>();
  /** What this subscriber read itself (replays) or was told of alone (clears, deletions). */
  readonly #own = new EndedTexts();

  constructor(
    resumedAt: readonly TextOffset[] = [],
    /** The dialog's registry, kept from the live payloads every subscriber receives (src/live/ended-texts.ts). */
    private readonly live: EndedTexts = new EndedTexts(),
  ) {
    for (const { responseId, part, offset } of resumedAt) this.#has.set(responseId, { part, length: offset });
  }

  /** Below which part `responseId`'s text is over. */
  #endedBelow(responseId: string) {
    return Math.max(this.#own.below(responseId), this.live.below(responseId));
  }

  /** The rest of each text so far that the subscriber lacks. */
  *fromSnapshot(states: readonly InFlightState[], sent: number): Generator<TextDeltaView> {
    for (const state of states) {
      if (state.part < this.#endedBelow(state.responseId)) continue;
      const has = this.#has.get(state.responseId);
      const from = has && has.part === state.part ? has.length : has && has.part > state.part ? Infinity : 0;
      if (from >= state.text.length) continue;
      this.#has.set(state.responseId, { part: state.part, length: state.text.length });
      const { dialogId, responseId, part, type } = state;
      yield viewOf({ dialogId, responseId, part, type, offset: from, delta: state.text.slice(from) }, sent);
    }
  }

  /** A live delta as the subscriber should get it: whole, trimmed, nothing (seen) or "gap". */
  onText(text: TextPayload, sent: number): TextDeltaView | null | "gap" {
    const view = this.viewOfText(text, sent);
    if (view && view !== "gap") this.took(text);
    return view;
  }

  /**
   * What onText answers, without counting the delta as had: the direct lane
   * (src/live/direct-delivery.ts) asks before it knows the delta will be written, and calls
   * took() once it was.
   */
  viewOfText(text: TextPayload, sent: number): TextDeltaView | null | "gap" {
    if (text.part < this.#endedBelow(text.responseId)) return null;
    const has = this.#has.get(text.responseId);
    const length = has && has.part === text.part ? has.length : has && has.part > text.part ? Infinity : 0;
    const end = text.offset + text.delta.length;
    if (end <= length) return null;
    if (text.offset > length) return "gap";
    if (text.offset === length) return viewOf(text, sent);
    return viewOf({ ...text, offset: length, delta: text.delta.slice(length - text.offset) }, sent);
  }

  /**
   * Whether `text` may be written before anything queued: it continues the part the subscriber is
   * being sent, or opens the part right after the response's events it was sent. A later part
   * follows a committed write (the earlier part's) that may still be on its way through the
   * subscriber's loop; it waits there behind it, so no one sees a part typed before the one it
   * follows is committed.
   */
  followsSent(text: TextPayload) {
    const has = this.#has.get(text.responseId);
    if (has) return has.part === text.part;
    return text.part === this.#endedBelow(text.responseId);
  }

  /** The subscriber was sent `text` (as viewOfText showed it): it has its part up to its end. */
  took(text: TextPayload) {
    const length = text.offset + text.delta.length;
    // Changed in place: called for every subscriber of every delta, it allocates nothing.
    const has = this.#has.get(text.responseId);
    if (!has) return void this.#has.set(text.responseId, { part: text.part, length });
    has.part = text.part;
    has.length = length;
  }

  /** clearDialog: every response of the dialog, with its text, is gone. */
  onCleared() {
    for (const responseId of [...this.#has.keys(), ...this.#own.responses(), ...this.live.responses()])
      this.#own.end(responseId, Infinity);
    this.#has.clear();
  }

  /** deleteResponse: the response, with its text, is gone. */
  onResponseDeleted(responseId: string) {
    this.#own.end(responseId, Infinity);
    this.#has.delete(responseId);
  }

  /**
   * A committed write: texts it committed or dropped are over for this subscriber. A live one
   * (published on the bus) is in the dialog's registry already; a replayed one is read here.
   */
  onCommitted(delta: DeltaPayload & { response?: Response | null }, live = false) {
    const has = this.#has.get(delta.responseId);
    if (live) {
      if (has && has.part < this.live.below(delta.responseId)) this.#has.delete(delta.responseId);
      return;
    }
    // A replayed write carries no endsTextPart; its response's event count says the same.
    const endedBelow = this.#own.onCommitted(delta, delta.response ? eventCountOf(delta.response) : 0);
    if (has && has.part < endedBelow) this.#has.delete(delta.responseId);
  }
}
