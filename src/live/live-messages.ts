// The messages of the live bus (src/live/live-bus.ts): what a committed write publishes, in-flight
// text, a resync, and how to tell them apart. Small JSON: ids, seqs, status.
import type { Event, Response } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";

/** What one committed write changed, as published. */
export interface DeltaPayload {
  dialogId: string;
  responseId: string;
  /** The dialog's last seq before the write and after it (equal for a status-only write). */
  previousSeq: number;
  seq: number;
  /** The response's status once the write committed. */
  status: ResponseStatus;
  /** The write committed or dropped the response's in-flight text of this part (src/history-writes/). */
  endsTextPart?: number;
}

/** Text appended to an in-flight AI or reasoning event (src/history-writes/). */
export interface TextPayload {
  dialogId: string;
  responseId: string;
  /** The index the event will have among the response's events once committed. */
  part: number;
  type: "AI" | "REASONING";
  /** Where `delta` starts in the event's text (UTF-16 code units). */
  offset: number;
  delta: string;
}

export interface TextMessage {
  text: TextPayload;
}

/**
 * clearDialog committed: every event of the dialog up to `seq` is gone (the dialog's seq does not
 * move, so previousSeq = seq). A client drops what it holds and continues after `seq`.
 */
export interface ClearedPayload {
  dialogId: string;
  cleared: true;
  previousSeq: number;
  seq: number;
}

/**
 * A response was deleted (the Responses API's DELETE /v1/responses/{id}; only a response nobody
 * continues can be): it and its events are gone. No seq moves (previousSeq = seq = the dialog's
 * last seq). A client drops the response's events and its in-flight text.
 */
export interface ResponseDeletedPayload {
  dialogId: string;
  responseId: string;
  responseDeleted: true;
  previousSeq: number;
  seq: number;
}

/** deleteDialog committed: the dialog's streams end. */
export interface DeletedPayload {
  dialogId: string;
  deleted: true;
}

export const isDeleted = (message: LiveMessage): message is DeletedPayload => "deleted" in message;

export const isCleared = (message: LiveMessage): message is ClearedPayload => "cleared" in message;

export const isResponseDeleted = (message: LiveMessage): message is ResponseDeletedPayload =>
  "responseDeleted" in message;

/** Payloads may have been lost (Redis was away): re-read the current state from the database. */
export interface Resync {
  resync: true;
}

/** What a committed write publishes (src/history-writes/ is the one caller of publish). */
export type CommittedPayload = DeltaPayload | ClearedPayload | DeletedPayload | ResponseDeletedPayload;

/** A delta's events (in seq order) and its response's row, as the write that committed it returned them. */
export interface DeltaRows {
  events: Event[];
  response: Response;
}

/** What publish is given: the payload, and a delta's rows when its write returned them (never published as such). */
export type CommittedWrite = CommittedPayload & { delta?: DeltaRows };

export type LiveMessage = CommittedPayload | Resync | TextMessage;

export const isResync = (message: LiveMessage): message is Resync => "resync" in message;

/** A write's delta (not a clear, a deletion, text or a resync). */
export const isCommittedWrite = (message: LiveMessage): message is DeltaPayload =>
  "status" in message && !isCleared(message) && !isResponseDeleted(message);
export const isText = (message: LiveMessage): message is TextMessage => "text" in message;

export type Topic = "historyDelta" | "responseUpdated";

/** Instance-wide notices that are not about one dialog (API key revocations). */
export type NoticeHandler = (notice: unknown) => void;
