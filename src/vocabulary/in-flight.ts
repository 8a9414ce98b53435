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
