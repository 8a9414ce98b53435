// In-flight text: the answer (or reasoning) of an IN_PROGRESS response while it is being typed.
// Agents feed it through the streamText mutation, the server's own model loop through this module;
// subscribers of historyDelta see it grow, then see it replaced by the committed event.
//
// API (one instance per app, made by buildApp and reached as `ctx.inFlight`; every call is safe
// from any instance):
//   appendTextDelta({ responseId, type: "AI" | "REASONING", delta, offset? }, tenantId?)
//       → { responseId, part, type, offset, length }
//     Appends to the response's open event, opening one when there is none. `offset` (UTF-16 code
//     units, as String.length counts) must be where the text ends, or a TextOffsetError says where
//     it does; omitted, the delta is appended at the end. A delta of the other type first commits
//     the open text (reasoning, then the answer). `part` is the index the event will have among
//     the response's events. With `tenantId`, another tenant's response is NOT_FOUND.
//   commitText(responseId) → EndingWrite | null
//     Ends the step: the open text becomes one AI/REASONING event with its seq (appendEvents).
//   appendEvents / completeResponse / interruptResponse (inputs of src/services/response-lifecycle.ts)
//     → EndingWrite. The lifecycle writes, aware of the open text: appendEvents and completeResponse
//     commit it first (in the same write for appendEvents); interruptResponse saves it as the
//     partial answer when partialText is not given (SAVE_PARTIAL / SAVE_MARKED) or drops it
//     (DISCARD).
//   Like the services, these return the write unpublished, with `endsTextPart` when it ended the
//   open text: the caller publishes it (`live.publish(write)`, as committedWrite does). Writes the
//   caller does not see (a text committed before completeResponse, or because a delta of the other
//   type came) are published here.
//   textOf(responseId), textsOfDialog(dialogId) → InFlightState(s): the text so far.
//   endIdleResponses() → ids: responses whose agent sent nothing for `idleTimeoutMs` end INCOMPLETE
//     with their text so far (run every `sweepIntervalMs` when started with `sweep: true`).
//
// Durability: the text lives in this process (or in Redis with REDIS_URL, where it survives a
// restart of any instance) and is checkpointed on the response row at most `checkpointMs` or
// `checkpointChars` after it grew, before the delta that crossed the bound is acknowledged. After
// a restart without Redis the text so far is the checkpoint: at most checkpointMs of deltas, and
// fewer than checkpointChars characters, are lost, and the agent's next delta gets a
// TextOffsetError telling it where to resend from.
import { ConflictError, NotFoundError, TextOffsetError } from "../errors.js";
import {
  checkpointOf,
  clearCheckpoint,
  eventCountOf,
  idleStreamingResponses,
  inProgressResponses,
  readResponseForText,
  responsesWithCheckpoints,
  saveCheckpoint,
} from "../services/in-flight-checkpoints.js";
import * as lifecycle from "../services/response-lifecycle.js";
import type { WriteResult } from "../services/write-result.js";
import { logger } from "../logger.js";
import {
  type InFlightState,
  type InFlightStore,
  memoryInFlightStore,
  redisInFlightStore,
  withLocalFallback,
} from "./in-flight-store.js";
import type { LiveBus } from "./live-bus.js";
import type { Store } from "../store/store.js";

import {
  checkDelta,
  checkSize,
  type EndingWrite,
  eventOf,
  type InFlightOptions,
  type TextDeltaInput,
  type TextPosition,
} from "./in-flight-input.js";

export type { InFlightState, InFlightType } from "./in-flight-store.js";
export type { EndingWrite, InFlightOptions, TextDeltaInput, TextPosition } from "./in-flight-input.js";
export { inFlightOptionsFrom } from "./in-flight-input.js";

export type InFlightText = ReturnType<typeof createInFlightText>;

export function createInFlightText(store: Store, live: LiveBus, options: InFlightOptions) {
  const clock = options.clock ?? Date.now;
  const { checkpointMs, checkpointChars, idleTimeoutMs } = options;
  const texts: InFlightStore = live.redis
    ? withLocalFallback(redisInFlightStore(live.redis), memoryInFlightStore(), (error) =>
        logger.warn(`[live] in-flight text held in this process: Redis did not answer (${error.message})`),
      )
    : memoryInFlightStore();
  /** responseId → when and at what length this instance last checkpointed it. */
  const checkpoints = new Map<string, { at: number; length: number }>();
  /** One operation per response at a time in this instance (the texts' own checks cover the others). */
  const queues = new Map<string, Promise<unknown>>();

  function serialized<T>(responseId: string, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(responseId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    queues.set(responseId, settled);
    void settled.then(() => queues.get(responseId) === settled && queues.delete(responseId));
    return next;
  }

  // Responses that had text in flight when this process started (it may have restarted): only
  // their checkpoints are worth a read when `texts` has nothing, so a write to any other
  // response costs no extra query. Read once, on first need.
  let recoverable: Promise<Set<string>> | null = null;
  const mayHaveCheckpoint = async (responseId: string) =>
    (await (recoverable ??= responsesWithCheckpoints(store).then((ids) => new Set(ids)))).has(responseId);

  /** The open text: held in `texts`, or after a restart without Redis the checkpoint's. */
  async function heldText(responseId: string): Promise<InFlightState | null> {
    const held = await texts.get(responseId);
    if (held) return held;
    if (!(await mayHaveCheckpoint(responseId))) return null;
    const row = await readResponseForText(store, responseId);
    if (!row?.checkpoint) return null;
    await texts.put(row.checkpoint);
    return row.checkpoint;
  }

  /** A write that ended the open text says so, for subscribers to drop it. */
  const ending = (write: WriteResult, part: number | undefined): EndingWrite =>
    part == null ? write : { ...write, endsTextPart: part };

  async function forget(held: InFlightState) {
    await texts.delete(held.responseId, held.part);
    (await recoverable)?.delete(held.responseId);
    checkpoints.delete(held.responseId);
    await clearCheckpoint(store, held.responseId, clock());
  }

  /** Commits the open text as its event; the write is returned unpublished. */
  async function commitHeld(held: InFlightState | null): Promise<EndingWrite | null> {
    if (!held) return null;
    if (!held.text) {
      await forget(held);
      return null;
    }
    const write = await lifecycle
      .appendEvents(store, { responseId: held.responseId, events: [eventOf(held)] })
      .catch(forgetIfFinished(held));
    await forget(held);
    return ending(write, held.part);
  }

  /** Commits the open text and publishes the write (for commits the caller does not see). */
  async function commitAndPublish(held: InFlightState | null) {
    const write = await commitHeld(held);
    if (write) live.publish(write);
  }

  /** A response that was finished meanwhile keeps no open text. */
  const forgetIfFinished = (held: InFlightState) => async (error: unknown) => {
    if (error instanceof ConflictError || error instanceof NotFoundError) await forget(held);
    throw error;
  };

  async function open(input: TextDeltaInput, tenantId: string | undefined): Promise<InFlightState> {
    const row = await readResponseForText(store, input.responseId);
    if (!row || (tenantId != null && row.tenantId !== tenantId)) throw NotFoundError.response(input.responseId);
    if (row.response.status !== "IN_PROGRESS") {
      throw new ConflictError(
        `Response ${input.responseId} is ${row.response.status}; only an IN_PROGRESS response takes text`,
      );
    }
    if (row.checkpoint) {
      await texts.put(row.checkpoint);
      return row.checkpoint;
    }
    const state: InFlightState = {
      dialogId: row.response.dialogId,
      responseId: input.responseId,
      tenantId: row.tenantId,
      part: eventCountOf(row.response),
      type: input.type,
      text: "",
      at: clock(),
    };
    await texts.put(state);
    return state;
  }

  function checkpointDue(held: InFlightState, length: number, now: number) {
    const last = checkpoints.get(held.responseId);
    return !last || now - last.at >= checkpointMs || length - last.length >= checkpointChars;
  }

  async function checkpoint(held: InFlightState, length: number, now: number) {
    checkpoints.set(held.responseId, { at: now, length });
    const state = await texts.get(held.responseId);
    if (state?.part === held.part) await saveCheckpoint(store, state);
  }

  /**
   * Held text of a response finished or deleted by a path that bypassed this module (clearDialog,
   * deleteDialog, retention, another instance's writes without Redis) is noticed when its next
   * checkpoint is due, before the delta is taken: the text is forgotten and the delta refused.
   */
  async function checkStillInProgress(held: InFlightState) {
    const row = await readResponseForText(store, held.responseId);
    if (row?.response.status === "IN_PROGRESS") return;
    await forget(held);
    if (!row) throw NotFoundError.response(held.responseId);
    throw new ConflictError(
      `Response ${held.responseId} is ${row.response.status}; only an IN_PROGRESS response takes text`,
    );
  }

  async function appendTextDelta(input: TextDeltaInput, tenantId?: string): Promise<TextPosition> {
    checkDelta(input, options.maxDeltaChars);
    return serialized(input.responseId, async () => {
      let held = await texts.get(input.responseId);
      if (held && tenantId != null && held.tenantId !== tenantId) throw NotFoundError.response(input.responseId);
      held ??= await open(input, tenantId);
      if (held.type !== input.type) {
        // Reasoning ends where the answer starts (and the other way round): the open text is a step.
        if (held.text) {
          await commitAndPublish(held);
          held = await open(input, tenantId);
        } else {
          held = { ...held, type: input.type };
          await texts.put(held);
        }
      }
      const offset = input.offset ?? held.text.length;
      checkSize(held, input.delta, store.writeLimits.eventBytes);
      const now = clock();
      const due = checkpointDue(held, held.text.length + input.delta.length, now);
      if (due) await checkStillInProgress(held);
      const outcome = await texts.append(
        input.responseId,
        { part: held.part, type: held.type, offset },
        input.delta,
        now,
      );
      if (!outcome.appended) {
        throw new TextOffsetError(outcome.held?.text.length ?? 0, outcome.held?.part ?? null, offset);
      }
      const { dialogId, responseId, part, type } = held;
      live.publishText({ dialogId, responseId, part, type, offset, delta: input.delta });
      if (due) await checkpoint(held, outcome.length, now);
      return { responseId, part, type, offset, length: outcome.length };
    });
  }

  const commitText = (responseId: string) => serialized(responseId, async () => commitHeld(await heldText(responseId)));

  const appendEvents = (input: lifecycle.AppendEventsInput) =>
    serialized(input.responseId, async () => {
      const held = await heldText(input.responseId);
      if (!held?.text) {
        const write = await lifecycle.appendEvents(store, input);
        if (held) await forget(held);
        return ending(write, held?.part);
      }
      // The streamed text is the step before these events: one write, one delta.
      const events = [eventOf(held), ...input.events];
      const write = await lifecycle.appendEvents(store, { ...input, events }).catch(forgetIfFinished(held));
      await forget(held);
      return ending(write, held.part);
    });

  const completeResponse = (input: lifecycle.CompleteResponseInput) =>
    serialized(input.responseId, async () => {
      const held = await heldText(input.responseId);
      // A call completeResponse refuses anyway must not commit the text first.
      if (input.status !== "IN_PROGRESS") await commitAndPublish(held);
      return ending(await lifecycle.completeResponse(store, input), held?.part);
    });

  const interruptResponse = (input: lifecycle.InterruptResponseInput) =>
    serialized(input.responseId, async () => {
      const held = await heldText(input.responseId);
      const keepsText = input.behavior !== "DISCARD" && input.partialText == null;
      if (keepsText && held?.type === "REASONING" && held.text) {
        // Interrupted while thinking: the thought is kept, and without an answer the response ends INCOMPLETE.
        await commitAndPublish(held);
        return ending(
          await lifecycle.completeResponse(store, { responseId: input.responseId, status: "INCOMPLETE" }),
          held.part,
        );
      }
      const partialText = keepsText && held?.type === "AI" ? held.text : input.partialText;
      const write = await lifecycle.interruptResponse(store, { ...input, partialText });
      if (held) await forget(held);
      return ending(write, held?.part);
    });

  async function textOf(responseId: string): Promise<InFlightState | null> {
    return (await texts.get(responseId)) ?? (await readResponseForText(store, responseId))?.checkpoint ?? null;
  }

  /** The text in flight in a dialog now (held in `texts`, or from checkpoints after a restart). */
  async function textsOfDialog(dialogId: string): Promise<InFlightState[]> {
    const responses = await inProgressResponses(store, dialogId);
    const found = await Promise.all(
      responses.map(
        async (response) => (await texts.get(response.id)) ?? checkpointOf(response, response.dialog.tenantId),
      ),
    );
    return found.filter((text): text is InFlightState => text != null && text.text.length > 0);
  }

  async function endIdleResponses(): Promise<string[]> {
    const now = clock();
    const ended: string[] = [];
    for (const { id } of await idleStreamingResponses(store, new Date(now - idleTimeoutMs))) {
      await serialized(id, async () => {
        const held = await heldText(id);
        if (held && now - held.at < idleTimeoutMs) return; // a delta came after the checkpoint
        try {
          await commitAndPublish(held);
          live.publish(
            ending(await lifecycle.completeResponse(store, { responseId: id, status: "INCOMPLETE" }), held?.part),
          );
          ended.push(id);
        } catch (error) {
          if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
        }
      });
    }
    return ended;
  }

  const sweeper =
    options.sweep &&
    setInterval(() => {
      endIdleResponses().catch((error: Error) => logger.warn(`[in-flight] idle sweep failed: ${error.message}`));
    }, options.sweepIntervalMs);
  if (sweeper) sweeper.unref();

  const inFlight = {
    /** The longest delta appendTextDelta takes (MAX_TEXT_DELTA_CHARS). */
    maxDeltaChars: options.maxDeltaChars,
    appendTextDelta,
    commitText,
    appendEvents,
    completeResponse,
    interruptResponse,
    textOf,
    textsOfDialog,
    endIdleResponses,
    close() {
      if (sweeper) clearInterval(sweeper);
    },
  };
  return inFlight;
}
