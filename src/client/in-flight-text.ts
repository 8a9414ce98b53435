// In-flight text on the client: the answer (or reasoning) of an IN_PROGRESS response as it is
// typed, built from historyDelta's text deltas. Dependency-free, like applyHistoryDelta.

/** The fields of a HistoryDelta.text this helper reads. */
export interface TextDeltaLike {
  responseId: string;
  part: number;
  type: string;
  offset: number;
  delta: string;
}

/** The text typed so far into one response's open event. */
export interface InFlightText {
  responseId: string;
  /** The index the event will have among the response's events once committed. */
  part: number;
  /** "AI" or "REASONING". */
  type: string;
  text: string;
}

/** responseId → its in-flight text. */
export type InFlightTexts = Record<string, InFlightText>;

export type ApplyTextDeltaResult =
  | { status: "applied"; length: number }
  /** Every character of the delta was already there. */
  | { status: "duplicate"; length: number }
  /** Characters before the delta are missing: resubscribe with `textOffsetsOf(texts)`. */
  | { status: "gap"; length: number };

/** Adds a text delta to `texts` (in place) unless it repeats what is there or leaves a gap. */
export function applyTextDelta(texts: InFlightTexts, delta: TextDeltaLike): ApplyTextDeltaResult {
  const held = texts[delta.responseId];
  if (held && held.part > delta.part) return { status: "duplicate", length: held.text.length };
  const text = held && held.part === delta.part ? held.text : "";
  const end = delta.offset + delta.delta.length;
  if (end <= text.length) return { status: "duplicate", length: text.length };
  if (delta.offset > text.length) return { status: "gap", length: text.length };
  texts[delta.responseId] = {
    responseId: delta.responseId,
    part: delta.part,
    type: delta.type,
    text: text + delta.delta.slice(text.length - delta.offset),
  };
  return { status: "applied", length: end };
}

/**
 * A committed write: the text it committed (its `endsTextPart`), or all of the response's text
 * once it is finished, is dropped (the committed event takes its place). Returns whether anything went.
 */
export function endInFlightText(
  texts: InFlightTexts,
  delta: { responseId: string; status: string; endsTextPart?: number | null | undefined },
): boolean {
  const held = texts[delta.responseId];
  if (!held) return false;
  const ended = delta.status !== "IN_PROGRESS" || (delta.endsTextPart != null && held.part <= delta.endsTextPart);
  if (ended) delete texts[delta.responseId];
  return ended;
}

/** What to resubscribe with (historyDelta's `textOffsets`) to get only the text not held yet. */
export function textOffsetsOf(texts: InFlightTexts) {
  return Object.values(texts).map(({ responseId, part, text }) => ({ responseId, part, offset: text.length }));
}
