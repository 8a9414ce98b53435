// The text being typed into an IN_PROGRESS response before its event is committed
// (docs/live-history.md): held by src/live/in-flight-store.ts, checkpointed by the services,
// written by src/history-writes/, followed by every historyDelta stream.
export type InFlightType = "AI" | "REASONING";

/** The open text of one response. */
export interface InFlightState {
  dialogId: string;
  responseId: string;
  tenantId: string;
  /** How many events the response had when this event opened: the index it will have. */
  part: number;
  type: InFlightType;
  text: string;
  /** When the last delta arrived (ms, on the in-flight module's clock). */
  at: number;
}

/** The open text without the text: what a delta needs to check its position and size. */
export type InFlightHead = Omit<InFlightState, "text"> & {
  /** The text's length in UTF-16 units (as JavaScript counts). */
  length: number;
  /** The text's length in UTF-8 bytes (a lone surrogate counts as U+FFFD, as it is sent). */
  bytes: number;
};

/** Where a read of the text ended: its `length` in UTF-16 units, and in UTF-8 bytes. */
export interface TextMark {
  part: number;
  length: number;
  bytes: number;
}

/** The text of `head` from `from` (UTF-16 units) to its end. */
export type TextTail = { head: InFlightHead; from: number; text: string };
