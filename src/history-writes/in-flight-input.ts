// What the in-flight text writes (text-writes.ts, lifecycle-writes.ts) take and answer, and how
// a delta is checked before anything is touched.
import type { Config } from "../config.js";
import { ValidationError } from "../errors.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import type { WriteResult } from "../services/write-result.js";
import type { InFlightState, InFlightType } from "../vocabulary/in-flight.js";

export interface InFlightOptions {
  /** Milliseconds now; tests move it by hand. */
  clock?: () => number;
  /** IN_FLIGHT_CHECKPOINT_MS, IN_FLIGHT_CHECKPOINT_CHARS, IN_FLIGHT_IDLE_TIMEOUT, IN_FLIGHT_SWEEP_INTERVAL. */
  checkpointMs: number;
  checkpointChars: number;
  idleTimeoutMs: number;
  sweepIntervalMs: number;
  /** MAX_TEXT_DELTA_CHARS: the longest delta one call may carry. */
  maxDeltaChars: number;
  /** Run endIdleResponses every sweepIntervalMs (the server does; bare apps in tests do not). */
  sweep?: boolean;
}

/** The configuration's in-flight settings (the server sweeps; a test adds `sweep: true` itself). */
export const inFlightOptionsFrom = (config: Config): InFlightOptions => ({
  checkpointMs: config.IN_FLIGHT_CHECKPOINT_MS,
  checkpointChars: config.IN_FLIGHT_CHECKPOINT_CHARS,
  idleTimeoutMs: config.IN_FLIGHT_IDLE_TIMEOUT,
  sweepIntervalMs: config.IN_FLIGHT_SWEEP_INTERVAL,
  maxDeltaChars: config.MAX_TEXT_DELTA_CHARS,
});

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
export function checkDelta(input: TextDeltaInput, maxDeltaChars: number) {
  if (input.type !== "AI" && input.type !== "REASONING") throw ValidationError.at(["type"], "must be AI or REASONING");
  if (!input.delta) throw ValidationError.at(["delta"], "must not be empty");
  if (input.delta.length > maxDeltaChars) {
    throw ValidationError.at(["delta"], `longer than MAX_TEXT_DELTA_CHARS (${maxDeltaChars})`);
  }
  if (input.offset != null && (!Number.isInteger(input.offset) || input.offset < 0)) {
    throw ValidationError.at(["offset"], "must be a whole number from 0");
  }
}

/** Refuses a delta that would make the text larger than an event may be. */
export function checkSize(held: { length: number; bytes: number }, delta: string, maxEventBytes: number) {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: only long texts need measuring.
  const longest = (held.length + delta.length) * 3;
  if (longest > maxEventBytes && held.bytes + Buffer.byteLength(delta) > maxEventBytes) {
    throw ValidationError.at(["delta"], `the text would pass MAX_EVENT_BYTES (${maxEventBytes} bytes)`);
  }
}
