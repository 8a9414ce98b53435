// What the in-flight text module (src/live/in-flight-text.ts) takes and answers, and how it checks
// a delta before touching anything.
import { config } from "../config.js";
import { ValidationError } from "../errors.js";
import type { HistoryEventInput } from "../services/event-input.js";
import type { WriteResult } from "../services/write-result.js";
import type { InFlightState, InFlightType } from "./in-flight-store.js";

export interface InFlightOptions {
  /** Milliseconds now; tests move it by hand. */
  clock?: () => number;
  checkpointMs?: number;
  checkpointChars?: number;
  idleTimeoutMs?: number;
  sweepIntervalMs?: number;
  /** Run endIdleResponses every sweepIntervalMs (the server does; bare apps in tests do not). */
  sweep?: boolean;
}

export interface TextDeltaInput {
  responseId: string;
  type: InFlightType;
  delta: string;
  offset?: number | null;
}

export interface TextPosition {
  responseId: string;
  part: number;
  type: InFlightType;
  /** Where the delta started, and the text's length after it. */
  offset: number;
  length: number;
}

/** A write as the lifecycle services answer it, saying which in-flight part it ended. */
export type EndingWrite = WriteResult & { endsTextPart?: number };

/** The event the open text becomes when it is committed. */
export function eventOf(held: InFlightState): HistoryEventInput {
  return held.type === "AI" ? { ai: { content: held.text } } : { reasoning: { content: held.text } };
}

/** Refuses a malformed delta (nothing has been read or changed yet). */
export function checkDelta(input: TextDeltaInput) {
  if (input.type !== "AI" && input.type !== "REASONING") throw ValidationError.at(["type"], "must be AI or REASONING");
  if (!input.delta) throw ValidationError.at(["delta"], "must not be empty");
  if (input.delta.length > config.MAX_TEXT_DELTA_CHARS) {
    throw ValidationError.at(["delta"], `longer than MAX_TEXT_DELTA_CHARS (${config.MAX_TEXT_DELTA_CHARS})`);
  }
  if (input.offset != null && (!Number.isInteger(input.offset) || input.offset < 0)) {
    throw ValidationError.at(["offset"], "must be a whole number from 0");
  }
}

/** Refuses a delta that would make the text larger than an event may be. */
export function checkSize(held: InFlightState, delta: string) {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: only long texts need measuring.
  const longest = (held.text.length + delta.length) * 3;
  if (longest > config.MAX_EVENT_BYTES && Buffer.byteLength(held.text + delta) > config.MAX_EVENT_BYTES) {
    throw ValidationError.at(["delta"], `the text would pass MAX_EVENT_BYTES (${config.MAX_EVENT_BYTES} bytes)`);
  }
}
