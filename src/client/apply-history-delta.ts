// applyHistoryDelta: what a client does with each delta of dialogql's historyDelta subscription.
// The caller owns the list of events; each delta is appended to it at most once and never out of
// order, and a cleared delta (clearDialog) empties it. Dependency-free on purpose, so a browser app
// can import it without the server. With `options.inFlight` it also keeps the text being typed
// (src/client/in-flight-text.ts).
import {
  type ApplyTextDeltaResult,
  applyTextDelta,
  endInFlightText,
  type InFlightTexts,
  type TextDeltaLike,
} from "./in-flight-text.js";

/** The least an event needs for this helper: its dialog-wide seq (and its response, for deletions). */
export interface SeqEvent {
  seq: number;
  /** Select it (`response { id }`) to have a deleted response's events removed. */
  response?: { id: string } | null;
}

/** The fields of a HistoryDelta this helper reads (select at least these). */
export interface HistoryDeltaLike<E extends SeqEvent = SeqEvent> {
  previousSeq: number;
  seq: number;
  append: readonly E[];
  /** clearDialog: every event up to `seq` is gone (select `cleared` to have it handled). */
  cleared?: boolean | null;
  /** DELETE /v1/responses/{id}: the response `responseId` and its events are gone (select it, and `responseId`). */
  responseDeleted?: boolean | null;
  /** Select these (and responseId, status) to follow in-flight text. */
  responseId?: string | null;
  status?: string | null;
  text?: TextDeltaLike | null;
  endsTextPart?: number | null;
}

export type ApplyHistoryDeltaResult =
  /** The delta's new events were appended (none for a status-only delta). */
  | { status: "applied"; appended: number; lastSeq: number }
  /** Every event of the delta was already in the list; nothing changed. */
  | { status: "duplicate"; lastSeq: number }
  /**
   * Events between the list and the delta are missing (seqs `missingFrom`..`missingTo`);
   * nothing changed. Resubscribe with `afterSeq: lastSeq` to have them replayed.
   */
  | { status: "gap"; lastSeq: number; missingFrom: number; missingTo: number }
  /**
   * The dialog was cleared at `lastSeq`: the events up to it were removed from the list (`removed`
   * of them). Keep `lastSeq` and pass it as `options.lastSeq` next time: the list alone no
   * longer shows how far the client has seen.
   */
  | { status: "cleared"; removed: number; lastSeq: number }
  /**
   * The response `responseId` was deleted: its events (those whose `response.id` is it, `removed`
   * of them) were removed from the list, and its in-flight text from `options.inFlight`.
   */
  | { status: "responseDeleted"; removed: number; lastSeq: number }
  /** A text delta, applied to `options.inFlight` (or not: see `text`); the events are unchanged. */
  | { status: "text"; lastSeq: number; text: ApplyTextDeltaResult };

export interface ApplyHistoryDeltaOptions {
  /** The last seq the client has seen, when the list cannot tell (after a clear); default: the list's last. */
  lastSeq?: number;
  /** Text being typed, by response id: text deltas grow it, and the committed event replaces it. */
  inFlight?: InFlightTexts;
}

/**
 * Appends `delta.append` to `history` when the delta continues it. `history` holds a dialog's
 * events in seq order as this stream delivers them (for a dialog without branches, exactly
 * `Dialog.history`); its last event's seq is what the client has seen.
 */
export function applyHistoryDelta<E extends SeqEvent>(
  history: E[],
  delta: HistoryDeltaLike<E>,
  options: ApplyHistoryDeltaOptions = {},
): ApplyHistoryDeltaResult {
  const lastSeq = Math.max(history.at(-1)?.seq ?? 0, options.lastSeq ?? 0);
  const { inFlight } = options;
  if (delta.text) {
    return {
      status: "text",
      lastSeq,
      text: inFlight ? applyTextDelta(inFlight, delta.text) : { status: "duplicate", length: 0 },
    };
  }
  if (delta.responseDeleted && delta.responseId) {
    const responseId = delta.responseId;
    if (inFlight) delete inFlight[responseId];
    const kept = history.filter((event) => event.response?.id !== responseId);
    const removed = history.length - kept.length;
    history.splice(0, history.length, ...kept);
    return { status: "responseDeleted", removed, lastSeq };
  }
  if (inFlight && delta.cleared) for (const responseId of Object.keys(inFlight)) delete inFlight[responseId];
  if (inFlight && delta.responseId && delta.status) {
    endInFlightText(inFlight, { responseId: delta.responseId, status: delta.status, endsTextPart: delta.endsTextPart });
  }
  if (delta.cleared) {
    // Whatever was missed before a clear is gone too: a clear never leaves a gap.
    const kept = history.filter((event) => event.seq > delta.seq);
    const removed = history.length - kept.length;
    history.splice(0, history.length, ...kept);
    return { status: "cleared", removed, lastSeq: Math.max(lastSeq, delta.seq) };
  }
  if (delta.previousSeq > lastSeq) {
    return { status: "gap", lastSeq, missingFrom: lastSeq + 1, missingTo: delta.previousSeq };
  }
  const isStatusOnly = delta.append.length === 0;
  if (delta.seq <= lastSeq && !isStatusOnly) return { status: "duplicate", lastSeq };
  // A delta overlapping what the list has contributes only its newer events.
  const fresh = delta.append.filter((event) => event.seq > lastSeq);
  history.push(...fresh);
  return { status: "applied", appended: fresh.length, lastSeq: history.at(-1)?.seq ?? 0 };
}
