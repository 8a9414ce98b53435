// What a write is asked and what it answers: shared by the services that write and by
// idempotency (which answers a retry with an earlier write's result), so neither imports the other.
import type { Dialog, Event, Response } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import type { Json } from "../vocabulary/json.js";

export interface UsageInput {
  inputTokens?: number | null;
  outputTokens?: number | null;
  reasoningTokens?: number | null;
  totalTokens?: number | null;
  /** Input tokens read from the provider's prompt cache (a part of inputTokens, priced lower). */
  cachedTokens?: number | null;
}

export interface CreateResponseInput {
  dialogId?: string | null;
  previousResponseId?: string | null;
  /** With dialogId (and no previousResponseId): a new first turn of the dialog, a branch from its start. */
  fromStart?: boolean | null;
  model?: string | null;
  input: HistoryEventInput[];
  output?: HistoryEventInput[] | null;
  status?: ResponseStatus | null;
  usage?: UsageInput | null;
  error?: Json | null;
  metadata?: Json | null;
  idempotencyKey?: string | null;
  /**
   * What a retry with the same key must repeat, when that is not this input itself: a /v1 door
   * hashes the HTTP request it answered (src/responses-api/idempotent-turns.ts).
   */
  requestHash?: string | null;
}

/** What a committed write changed: enough to publish a history delta. */
export interface WriteResult {
  dialogId: string;
  responseId: string;
  /** The dialog's last seq before the write, and after it (equal when no event was written). */
  previousSeq: number;
  seq: number;
  /** The response's status once the write committed. */
  status: ResponseStatus;
  /** The response and dialog rows as this write committed them (absent when it stored nothing new). */
  written?: { response: Response; dialog: Dialog };
  /**
   * What its delta shows, as the write returned it: the events it added (in seq order) and the
   * response's row as committed. With it, publishing the delta reads nothing back
   * (src/live/delta-carriage.ts); absent when the write's statements did not return them.
   */
  delta?: { events: Event[]; response: Response };
}
