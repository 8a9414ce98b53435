// In-flight text: the answer (or reasoning) of an IN_PROGRESS response while it is being typed.
// Agents feed it through the streamText mutation, the server's own model loop through this module;
// subscribers of historyDelta see it grow, then see it replaced by the committed event.
//
// API (one instance per live bus: `inFlightTextOf(live)`; every call is safe from any instance):
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
import { config } from "../config.js";
import { ConflictError, NotFoundError, TextOffsetError, ValidationError } from "../errors.js";
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
import type { HistoryEventInput } from "../services/event-input.js";
import * as lifecycle from "../services/response-lifecycle.js";
import type { WriteResult } from "../services/write-result.js";
import { logger } from "../logger.js";
import {
  type InFlightState,
  type InFlightStore,
  type InFlightType,
  memoryInFlightStore,
  redisInFlightStore,
} from "./in-flight-store.js";
import type { LiveBus } from "./live-bus.js";

export type { InFlightState, InFlightType } from "./in-flight-store.js";

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

export type InFlightText = ReturnType<typeof createInFlightText>;

/** A write as the lifecycle services answer it, saying which in-flight part it ended. */
export type EndingWrite = WriteResult & { endsTextPart?: number };

const instances = new WeakMap<LiveBus, InFlightText>();

/** The in-flight text of `live`'s server, made with the configuration's settings on first use. */
export function inFlightTextOf(live: LiveBus): InFlightText {
  return instances.get(live) ?? createInFlightText(live);
}

export function createInFlightText(live: LiveBus, options: InFlightOptions = {}) {
  const clock = options.clock ?? Date.now;
  const checkpointMs = options.checkpointMs ?? config.IN_FLIGHT_CHECKPOINT_MS;
  const checkpointChars = options.checkpointChars ?? config.IN_FLIGHT_CHECKPOINT_CHARS;
  const idleTimeoutMs = options.idleTimeoutMs ?? config.IN_FLIGHT_IDLE_TIMEOUT;
  const store: InFlightStore = live.redis ? redisInFlightStore(live.redis) : memoryInFlightStore();
  /** responseId → when and at what length this instance last checkpointed it. */
  const checkpoints = new Map<string, { at: number; length: number }>();
  /** One operation per response at a time in this instance (the store's checks cover the others). */
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
  // their checkpoints are worth a read when the store has nothing, so a write to any other
  // response costs no extra query. Read once, on first need.
  let recoverable: Promise<Set<string>> | null = null;
  const mayHaveCheckpoint = async (responseId: string) =>
    (await (recoverable ??= responsesWithCheckpoints().then((ids) => new Set(ids)))).has(responseId);

  /** The open text: the store's, or after a restart without Redis the checkpoint's. */
  async function heldText(responseId: string): Promise<InFlightState | null> {
    const held = await store.get(responseId);
    if (held) return held;
    if (!(await mayHaveCheckpoint(responseId))) return null;
    const row = await readResponseForText(responseId);
    if (!row?.checkpoint) return null;
    await store.put(row.checkpoint);
    return row.checkpoint;
  }

  /** A write that ended the open text says so, for subscribers to drop it. */
  const ending = (write: WriteResult, part: number | undefined): EndingWrite =>
    part == null ? write : { ...write, endsTextPart: part };

  async function forget(held: InFlightState) {
    await store.delete(held.responseId, held.part);
    (await recoverable)?.delete(held.responseId);
    checkpoints.delete(held.responseId);
    await clearCheckpoint(held.responseId, clock());
  }

  /** Commits the open text as its event; the write is returned unpublished. */
  async function commitHeld(held: InFlightState | null): Promise<EndingWrite | null> {
    if (!held) return null;
    if (!held.text) {
      await forget(held);
      return null;
    }
    const write = await lifecycle
      .appendEvents({ responseId: held.responseId, events: [eventOf(held)] })
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
    const row = await readResponseForText(input.responseId);
    if (!row || (tenantId != null && row.tenantId !== tenantId)) throw NotFoundError.response(input.responseId);
    if (row.response.status !== "IN_PROGRESS") {
      throw new ConflictError(
        `Response ${input.responseId} is ${row.response.status}; only an IN_PROGRESS response takes text`,
      );
    }
    if (row.checkpoint) {
      await store.put(row.checkpoint);
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
    await store.put(state);
    return state;
  }

  async function maybeCheckpoint(held: InFlightState, length: number, now: number) {
    const last = checkpoints.get(held.responseId);
    if (last && now - last.at < checkpointMs && length - last.length < checkpointChars) return;
    checkpoints.set(held.responseId, { at: now, length });
    const state = await store.get(held.responseId);
    if (state?.part === held.part) await saveCheckpoint(state);
  }

  async function appendTextDelta(input: TextDeltaInput, tenantId?: string): Promise<TextPosition> {
    checkDelta(input);
    return serialized(input.responseId, async () => {
      let held = await store.get(input.responseId);
      if (held && tenantId != null && held.tenantId !== tenantId) throw NotFoundError.response(input.responseId);
      held ??= await open(input, tenantId);
      if (held.type !== input.type) {
        // Reasoning ends where the answer starts (and the other way round): the open text is a step.
        if (held.text) {
          await commitAndPublish(held);
          held = await open(input, tenantId);
        } else {
          held = { ...held, type: input.type };
          await store.put(held);
        }
      }
      const offset = input.offset ?? held.text.length;
      checkSize(held, input.delta);
      const now = clock();
      const outcome = await store.append(input.responseId, { part: held.part, type: held.type, offset }, input.delta, now);
      if (!outcome.appended) {
        throw new TextOffsetError(outcome.held?.text.length ?? 0, outcome.held?.part ?? null, offset);
      }
      const { dialogId, responseId, part, type } = held;
      live.publishText({ dialogId, responseId, part, type, offset, delta: input.delta });
      await maybeCheckpoint(held, outcome.length, now);
      return { responseId, part, type, offset, length: outcome.length };
    });
  }

  const commitText = (responseId: string) =>
    serialized(responseId, async () => commitHeld(await heldText(responseId)));

  const appendEvents = (input: lifecycle.AppendEventsInput) =>
    serialized(input.responseId, async () => {
      const held = await heldText(input.responseId);
      if (!held?.text) {
        const write = await lifecycle.appendEvents(input);
        if (held) await forget(held);
        return ending(write, held?.part);
      }
      // The streamed text is the step before these events: one write, one delta.
      const events = [eventOf(held), ...input.events];
      const write = await lifecycle.appendEvents({ ...input, events }).catch(forgetIfFinished(held));
      await forget(held);
      return ending(write, held.part);
    });

  const completeResponse = (input: lifecycle.CompleteResponseInput) =>
    serialized(input.responseId, async () => {
      const held = await heldText(input.responseId);
      // A call completeResponse refuses anyway must not commit the text first.
      if (input.status !== "IN_PROGRESS") await commitAndPublish(held);
      return ending(await lifecycle.completeResponse(input), held?.part);
    });

  const interruptResponse = (input: lifecycle.InterruptResponseInput) =>
    serialized(input.responseId, async () => {
      const held = await heldText(input.responseId);
      const keepsText = input.behavior !== "DISCARD" && input.partialText == null;
      if (keepsText && held?.type === "REASONING" && held.text) {
        // Interrupted while thinking: the thought is kept, and without an answer the response ends INCOMPLETE.
        await commitAndPublish(held);
        return ending(await lifecycle.completeResponse({ responseId: input.responseId, status: "INCOMPLETE" }), held.part);
      }
      const partialText = keepsText && held?.type === "AI" ? held.text : input.partialText;
      const write = await lifecycle.interruptResponse({ ...input, partialText });
      if (held) await forget(held);
      return ending(write, held?.part);
    });

  async function textOf(responseId: string): Promise<InFlightState | null> {
    return (await store.get(responseId)) ?? (await readResponseForText(responseId))?.checkpoint ?? null;
  }

  /** The text in flight in a dialog now (from the store, or from checkpoints after a restart). */
  async function textsOfDialog(dialogId: string): Promise<InFlightState[]> {
    const responses = await inProgressResponses(dialogId);
    const texts = await Promise.all(
      responses.map(async (response) => (await store.get(response.id)) ?? checkpointOf(response, response.dialog.tenantId)),
    );
    return texts.filter((text): text is InFlightState => text != null && text.text.length > 0);
  }

  async function endIdleResponses(): Promise<string[]> {
    const now = clock();
    const ended: string[] = [];
    for (const { id } of await idleStreamingResponses(new Date(now - idleTimeoutMs))) {
      await serialized(id, async () => {
        const held = await heldText(id);
        if (held && now - held.at < idleTimeoutMs) return; // a delta came after the checkpoint
        try {
          await commitAndPublish(held);
          live.publish(ending(await lifecycle.completeResponse({ responseId: id, status: "INCOMPLETE" }), held?.part));
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
    }, options.sweepIntervalMs ?? config.IN_FLIGHT_SWEEP_INTERVAL);
  if (sweeper) sweeper.unref();

  const inFlight = {
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
  instances.set(live, inFlight);
  return inFlight;
}

function eventOf(held: InFlightState): HistoryEventInput {
  return held.type === "AI" ? { ai: { content: held.text } } : { reasoning: { content: held.text } };
}

function checkDelta(input: TextDeltaInput) {
  if (input.type !== "AI" && input.type !== "REASONING") throw ValidationError.at(["type"], "must be AI or REASONING");
  if (!input.delta) throw ValidationError.at(["delta"], "must not be empty");
  if (input.delta.length > config.MAX_TEXT_DELTA_CHARS) {
    throw ValidationError.at(["delta"], `longer than MAX_TEXT_DELTA_CHARS (${config.MAX_TEXT_DELTA_CHARS})`);
  }
  if (input.offset != null && (!Number.isInteger(input.offset) || input.offset < 0)) {
    throw ValidationError.at(["offset"], "must be a whole number from 0");
  }
}

function checkSize(held: InFlightState, delta: string) {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: only long texts need measuring.
  const longest = (held.text.length + delta.length) * 3;
  if (longest > config.MAX_EVENT_BYTES && Buffer.byteLength(held.text + delta) > config.MAX_EVENT_BYTES) {
    throw ValidationError.at(["delta"], `the text would pass MAX_EVENT_BYTES (${config.MAX_EVENT_BYTES} bytes)`);
  }
}
