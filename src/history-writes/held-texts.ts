// The open text of IN_PROGRESS responses as this app holds it: in `texts` (this process, or Redis
// with REDIS_URL, where it survives a restart of any instance), or after a restart without Redis
// in the checkpoint on the response row. These functions find, open and forget it; what a write
// does with it is in text-writes.ts and lifecycle-writes.ts.
import { ConflictError, NotFoundError, NotInProgressError } from "../errors.js";
import { withLocalFallback } from "../live/in-flight-fallback.js";
import { type InFlightStore, memoryInFlightStore, redisInFlightStore } from "../live/in-flight-store.js";
import type { InFlightHead, InFlightState } from "../vocabulary/in-flight.js";
import type { LiveBus } from "../live/live-bus.js";
import { logger } from "../logger.js";
import {
  clearCheckpoint,
  inProgressCheckpoints,
  readResponseForText,
  responsesWithCheckpoints,
} from "../services/in-flight-checkpoints.js";
import { eventCountOf } from "../vocabulary/event-counts.js";
import type { WriteResult } from "../services/write-result.js";
import type { Store } from "../store/store.js";
import type { EndingWrite, InFlightOptions, TextDeltaInput } from "./in-flight-input.js";
import { KeyedQueue } from "./keyed-queue.js";

/**
 * Where the checkpointed text of `part` ends (`end`, UTF-16 units), and in UTF-8 bytes when this
 * instance read the held text up to exactly there: the next checkpoint reads only what follows.
 */
export interface StoredEnd {
  part: number;
  end: number;
  bytes?: number;
}

export interface HeldTexts {
  store: Store;
  live: LiveBus;
  options: InFlightOptions;
  /** Milliseconds now (options.clock, or Date.now). */
  clock: () => number;
  texts: InFlightStore;
  /** At shutdown: hands the texts held in this process during a Redis stall back to Redis. */
  handBack: () => Promise<void>;
  /** responseId → when and at what length this instance last checkpointed it. */
  checkpoints: Map<string, { at: number; length: number }>;
  /**
   * responseId → where its checkpointed text of `part` ends, as this instance last wrote or read
   * it: the next checkpoint sends the text from there on (unknown, it asks the database first).
   */
  stored: Map<string, StoredEnd>;
  /**
   * responseId → the head of its text as this instance's last append left it: the next delta
   * appends on it without reading it first (the append itself checks part, type and length, and a
   * refused one reads the head again: text-writes.ts). Dropped when the text is forgotten.
   */
  heads: Map<string, InFlightHead>;
  /** One operation per response at a time in this instance. */
  queue: KeyedQueue;
  /**
   * Responses that had text in flight when this process started (it may have restarted): only
   * their checkpoints are worth a read when `texts` has nothing, so a write to any other response
   * costs no extra query. Read once, on first need.
   */
  recoverable: Promise<Set<string>> | null;
}

export function createHeldTexts(store: Store, live: LiveBus, options: InFlightOptions): HeldTexts {
  const texts = live.redis
    ? withLocalFallback(redisInFlightStore(live.redis), memoryInFlightStore(), (error) =>
        logger.warn(`[live] in-flight text held in this process: Redis did not answer (${error.message})`),
      )
    : memoryInFlightStore();
  return {
    store,
    live,
    options,
    clock: options.clock ?? Date.now,
    texts,
    handBack: async () => {
      if ("handBack" in texts) await texts.handBack();
    },
    checkpoints: new Map(),
    stored: new Map(),
    heads: new Map(),
    queue: new KeyedQueue(),
    recoverable: null,
  };
}

async function mayHaveCheckpoint(held: HeldTexts, responseId: string) {
  if (!held.recoverable) {
    const reading = responsesWithCheckpoints(held.store).then((ids) => new Set(ids));
    // A read that failed (the database away) is made again next time, not remembered.
    reading.catch(() => held.recoverable === reading && (held.recoverable = null));
    held.recoverable = reading;
  }
  return (await held.recoverable).has(responseId);
}

/** The open text: held in `texts`, or after a restart without Redis the checkpoint's. */
export async function heldText(held: HeldTexts, responseId: string): Promise<InFlightState | null> {
  const text = await held.texts.get(responseId);
  if (text) return text;
  if (!(await mayHaveCheckpoint(held, responseId))) return null;
  const row = await readResponseForText(held.store, responseId);
  if (!row?.checkpoint) return null;
  return takeUp(held, row.checkpoint);
}

/** Holds a checkpoint's text again, knowing it is stored to its end. */
async function takeUp(held: HeldTexts, checkpoint: InFlightState) {
  await held.texts.put(checkpoint);
  const { part, text } = checkpoint;
  held.stored.set(checkpoint.responseId, { part, end: text.length, bytes: Buffer.byteLength(text) });
  return checkpoint;
}

/** `erased`: the write that ended the text erased its checkpoint already (appendEvents' `endsText`). */
export async function forget(
  held: HeldTexts,
  text: Pick<InFlightState, "dialogId" | "responseId" | "part">,
  { erased = false } = {},
) {
  await held.texts.delete(text.responseId, text.part);
  (await held.recoverable)?.delete(text.responseId);
  held.checkpoints.delete(text.responseId);
  held.stored.delete(text.responseId);
  held.heads.delete(text.responseId);
  if (!erased) await clearCheckpoint(held.store, text.dialogId, text.responseId, held.clock());
}

/** The response is gone (deleted with its row and checkpoint): its held text goes too. */
export async function dropText(held: HeldTexts, responseId: string) {
  const text = await held.texts.head(responseId);
  if (text) await held.texts.delete(responseId, text.part);
  (await held.recoverable)?.delete(responseId);
  held.checkpoints.delete(responseId);
  held.stored.delete(responseId);
  held.heads.delete(responseId);
}

/** A response that was finished meanwhile keeps no open text. */
export const forgetIfFinished = (held: HeldTexts, text: InFlightState) => async (error: unknown) => {
  if (error instanceof ConflictError || error instanceof NotFoundError) await forget(held, text);
  throw error;
};

/** A write that ended the open text says so, for subscribers to drop it. */
export const ending = (write: WriteResult, part: number | undefined): EndingWrite =>
  part == null ? write : { ...write, endsTextPart: part };

export const notInProgress = (responseId: string, status: string) =>
  new NotInProgressError(responseId, status, "takes text");

/** Opens a text for the response's next event (or takes up its checkpoint). */
export async function openText(
  held: HeldTexts,
  input: TextDeltaInput,
  tenantId: string | undefined,
): Promise<InFlightState> {
  const row = await readResponseForText(held.store, input.responseId);
  if (!row || (tenantId != null && row.tenantId !== tenantId)) throw NotFoundError.response(input.responseId);
  if (row.response.status !== "IN_PROGRESS") throw notInProgress(input.responseId, row.response.status);
  if (row.checkpoint) return takeUp(held, row.checkpoint);
  const state: InFlightState = {
    dialogId: row.response.dialogId,
    responseId: input.responseId,
    tenantId: row.tenantId,
    part: eventCountOf(row.response),
    type: input.type,
    text: "",
    at: held.clock(),
  };
  await held.texts.put(state);
  // Nothing of this part is stored (a checkpoint of it would have been taken up).
  held.stored.set(state.responseId, { part: state.part, end: 0, bytes: 0 });
  return state;
}

/** The text so far of one response (held, or checkpointed). */
export async function textOf(held: HeldTexts, responseId: string): Promise<InFlightState | null> {
  return (await held.texts.get(responseId)) ?? (await readResponseForText(held.store, responseId))?.checkpoint ?? null;
}

/** The text in flight in a dialog now (held in `texts`, or from checkpoints after a restart). */
export async function textsOfDialog(held: HeldTexts, dialogId: string): Promise<InFlightState[]> {
  const responses = await inProgressCheckpoints(held.store, dialogId);
  const found = await Promise.all(
    responses.map(async ({ responseId, checkpoint }) => (await held.texts.get(responseId)) ?? checkpoint),
  );
  return found.filter((text): text is InFlightState => text != null && text.text.length > 0);
}
