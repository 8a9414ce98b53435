// The public shape of watchHistory: what a watcher holds and how it is driven.
import type { HistoryDeltaSubscription } from "./generated/graphql.js";
import type { InFlightTexts } from "./in-flight-text.js";
import type { HistoryEvent, ResponseSummary } from "./read-history-snapshot.js";

export type HistoryDelta = HistoryDeltaSubscription["historyDelta"];

/**
 * `not-found` and `unauthenticated` are final: the dialog is not the caller's (or does not exist),
 * or the server refused the caller (no valid API key, or the key was revoked); retrying would not
 * change either.
 */
export type WatchStatus = "loading" | "live" | "reconnecting" | "not-found" | "unauthenticated" | "closed";

export interface HistoryState {
  dialogId: string;
  status: WatchStatus;
  /** The response whose context `events` is: the head, or the pinned response. */
  responseId: string | null;
  /**
   * The context, root first, exactly as `Dialog.history(responseId)` serves it — or, with `tail`,
   * its last part (the `earlier` events before it are read by `loadEarlier`).
   */
  events: readonly HistoryEvent[];
  /** Events of the context before `events` that were not read yet (0 without `tail`). */
  earlier: number;
  /** The responses of the context, by id, with their latest status and usage. */
  responses: Readonly<Record<string, ResponseSummary>>;
  /**
   * Text being typed into responses that are still IN_PROGRESS (any branch), by response id: it
   * follows their committed events until the committed event replaces it.
   */
  inFlight: Readonly<InFlightTexts>;
  /** The dialog-wide seq the watcher has caught up to (any branch). */
  lastSeq: number;
  /** The last failure, while reconnecting or once it is final. */
  error: Error | null;
}

export interface WatchHistoryOptions {
  /** Follow this response's context instead of the head's. */
  responseId?: string | null;
  /** Called with every new state (a new object each time, so it can be handed to React). */
  onChange?: (state: HistoryState) => void;
  /**
   * Read only the context's last this many events at first (and after a re-read, at least as many
   * as were held), the rest on `loadEarlier`: a long dialog opens with one read.
   */
  tail?: number | null;
  /** Milliseconds to wait before reconnect attempt `attempt` (1, 2, …). */
  retryDelay?: (attempt: number) => number;
}

export interface HistoryWatcher {
  readonly state: HistoryState;
  /** Calls `listener` with every new state; returns the function that stops it. */
  onChange(listener: (state: HistoryState) => void): () => void;
  /** The first state, now or later, that passes `test`; rejects after `timeoutMs` or on close. */
  until(test: (state: HistoryState) => boolean, timeoutMs?: number): Promise<HistoryState>;
  /** Reads (at least) `count` more of the `earlier` events and puts them before `events`. */
  loadEarlier(count: number): Promise<void>;
  close(): void;
}
