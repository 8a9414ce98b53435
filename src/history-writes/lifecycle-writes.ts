// The lifecycle writes of an IN_PROGRESS response, aware of its open text (held-texts.ts), each
// published after its commit. appendEvents and completeResponse commit the open text in the same
// write as their own change, before it; interruptResponse and cancelResponse keep it as the partial
// answer (or drop it, for DISCARD); every write that ends the open text says so (`endsTextPart`),
// so subscribers drop the text the event replaces.
import { ConflictError, NotFoundError } from "../errors.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import type { InFlightState } from "../vocabulary/in-flight.js";
import { idleStreamingResponses } from "../services/in-flight-checkpoints.js";
import * as lifecycle from "../services/response-lifecycle.js";
import { ending, forget, forgetIfFinished, type HeldTexts, heldText } from "./held-texts.js";
import { type EndingWrite, eventOf } from "./in-flight-input.js";

/**
 * A write that commits (or drops) the open text erases its checkpoint in the same transaction;
 * the text knows its response's dialog, so the write does not look it up.
 */
const endsText = (text: InFlightState) => ({ endsText: true, dialogId: text.dialogId });

function published<W extends EndingWrite | null>(held: HeldTexts, write: W): W {
  if (write) held.live.publish(write);
  return write;
}

/** Commits the open text as its event; the write is returned unpublished. */
async function commitHeld(held: HeldTexts, text: InFlightState | null): Promise<EndingWrite | null> {
  if (!text) return null;
  if (!text.text) {
    await forget(held, text);
    return null;
  }
  const write = await lifecycle
    .appendEvents(held.store, { responseId: text.responseId, events: [eventOf(text)] }, endsText(text))
    .catch(forgetIfFinished(held, text));
  await forget(held, text, { erased: true });
  return ending(write, text.part);
}

/** Commits the open text and publishes the write. */
export async function commitAndPublish(held: HeldTexts, text: InFlightState | null) {
  return published(held, await commitHeld(held, text));
}

/** Ends the step: the open text becomes one AI/REASONING event with its seq. */
export const commitText = (held: HeldTexts, responseId: string) =>
  held.queue.run(responseId, async () => commitAndPublish(held, await heldText(held, responseId)));

export const appendEvents = (held: HeldTexts, input: lifecycle.AppendEventsInput) =>
  held.queue.run(input.responseId, async () => {
    // The model loop's steps with no text typed since its last write: none is open, none is read.
    const text = input.noTextTyped ? null : await heldText(held, input.responseId);
    if (!text?.text) {
      const write = await lifecycle.appendEvents(held.store, input, {
        endsText: text != null,
        dialogId: text?.dialogId ?? input.dialogId,
      });
      if (text) await forget(held, text, { erased: true });
      return published(held, ending(write, text?.part));
    }
    // The streamed text is the step before these events: one write, one delta. Events that begin
    // with that text written whole (with what the model loop keeps beside it) take its place.
    const events = writtenWhole(text, input.events) ? input.events : [eventOf(text), ...input.events];
    const write = await lifecycle
      .appendEvents(held.store, { ...input, events }, endsText(text))
      .catch(forgetIfFinished(held, text));
    await forget(held, text, { erased: true });
    return published(held, ending(write, text.part));
  });

/** Whether `events` begin with the open text's own event (same kind, same text). */
function writtenWhole(text: InFlightState, events: lifecycle.AppendEventsInput["events"]) {
  const first = events[0];
  const whole = text.type === "AI" ? first?.ai : first?.reasoning;
  return whole != null && whole.content === text.text;
}

/**
 * Ends the response. Its open text, when it has one, is committed by the same write, before the
 * final status: one write, one delta with the text's event and the end. The model loop's answer
 * (`input.answer`) is that text; where it is not held as typed (a delta refused while the database
 * was away), it is written whole from the answer, in place of what is held.
 */
export const completeResponse = (held: HeldTexts, input: lifecycle.CompleteResponseInput) =>
  held.queue.run(input.responseId, async () => {
    const { answer, ...end } = input;
    const text = await heldText(held, input.responseId);
    const dialogId = input.dialogId ?? text?.dialogId;
    // A call completeResponse refuses anyway (not a final status) must not commit the text first.
    const final = input.status !== "IN_PROGRESS";
    const typed = answerToCommit(held, text, answer);
    if (!typed || !final) {
      if (text && final) await forget(held, text);
      return published(held, ending(await lifecycle.completeResponse(held.store, { ...end, dialogId }), text?.part));
    }
    const endsWith = { endsWith: [typed], endsText: text != null };
    const write = await lifecycle.completeResponse(held.store, { ...end, dialogId }, endsWith).catch(async (error) => {
      if (text) await forgetIfFinished(held, text)(error);
      throw error;
    });
    if (text) await forget(held, text, { erased: true });
    return published(held, ending(write, text?.part));
  });

/**
 * The event the end commits as the answer: the model's answer, unless what is held already is it
 * (its typed text), or it is empty (no event, as for an empty open text), or it is larger than an
 * event may be — its deltas past MAX_EVENT_BYTES were refused, so what is held is all of it that
 * fits. Either way the event is cut to fit, so the end is never refused for its size (which would
 * leave the turn unended).
 */
function answerToCommit(held: HeldTexts, text: InFlightState | null, answer: HistoryEventInput | null | undefined) {
  const limit = held.store.writeLimits.eventBytes;
  const heldEvent = text?.text ? cutToFit(eventOf(text), limit) : null;
  const content = answer?.ai?.content ?? answer?.reasoning?.content;
  if (!answer || !content) return heldEvent;
  if (heldEvent && writtenWhole(text!, [answer])) return heldEvent;
  return excessBytes(answer, limit) > 0 ? (heldEvent ?? cutToFit(answer, limit)) : answer;
}

/** Bytes past the limit of an event as MAX_EVENT_BYTES measures it (src/services/event-input.ts). */
const excessBytes = (event: HistoryEventInput, limit: number) =>
  Buffer.byteLength(JSON.stringify(event.ai ?? event.reasoning)) - limit;

/** A text event whose content is cut at the end to fit: a character is a byte at least, so one cut
 * by the excess does it (the held text's bound counts its bytes, not the event's quoting). */
function cutToFit(event: HistoryEventInput, limit: number): HistoryEventInput {
  const excess = excessBytes(event, limit);
  if (excess <= 0) return event;
  const content = (event.ai ?? event.reasoning)!.content ?? "";
  let end = Math.max(content.length - excess, 0);
  // Not between the halves of a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/.test(content[end - 1]!)) end--;
  const cut = content.slice(0, end);
  return event.ai ? { ai: { ...event.ai, content: cut } } : { reasoning: { ...event.reasoning, content: cut } };
}

export const interruptResponse = (held: HeldTexts, input: lifecycle.InterruptResponseInput) =>
  held.queue.run(input.responseId, async () => {
    const text = await heldText(held, input.responseId);
    const keepsText = input.behavior !== "DISCARD" && input.partialText == null;
    if (keepsText && text?.type === "REASONING" && text.text) {
      return endAfterThought(held, text, "INCOMPLETE");
    }
    const partialText = keepsText && text?.type === "AI" ? text.text : input.partialText;
    const write = await lifecycle.interruptResponse(held.store, { ...input, partialText });
    if (text) await forget(held, text);
    return published(held, ending(write, text?.part));
  });

/**
 * The Responses API's cancel of a turn nobody in this process runs (an agent streaming it, or a
 * turn whose process is gone): the open text ends as interruptResponse ends it — an answer typed
 * so far is kept as the answer, a thought is committed — and the response ends CANCELLED.
 */
export const cancelResponse = (held: HeldTexts, responseId: string) =>
  held.queue.run(responseId, async () => {
    const text = await heldText(held, responseId);
    if (text?.type === "REASONING" && text.text) return endAfterThought(held, text, "CANCELLED");
    const partialText = text?.type === "AI" && text.text ? text.text : null;
    const write = await lifecycle.cancelResponse(held.store, { responseId, partialText });
    if (text) await forget(held, text);
    return published(held, ending(write, text?.part));
  });

/** Interrupted while thinking: the thought is kept, then the response ends with `status`. */
async function endAfterThought(held: HeldTexts, text: InFlightState, status: "INCOMPLETE" | "CANCELLED") {
  await commitAndPublish(held, text);
  const write = await lifecycle.completeResponse(held.store, { responseId: text.responseId, status });
  return published(held, ending(write, text.part));
}

/**
 * Responses whose agent sent nothing for `idleTimeoutMs` end INCOMPLETE with their text so far;
 * answers their ids.
 */
export async function endIdleResponses(held: HeldTexts): Promise<string[]> {
  const now = held.clock();
  const { idleTimeoutMs } = held.options;
  const ended: string[] = [];
  for (const { id } of await idleStreamingResponses(held.store, new Date(now - idleTimeoutMs))) {
    await held.queue.run(id, async () => {
      const text = await heldText(held, id);
      if (text && now - text.at < idleTimeoutMs) return; // a delta came after the checkpoint
      try {
        await commitAndPublish(held, text);
        const write = await lifecycle.completeResponse(held.store, { responseId: id, status: "INCOMPLETE" });
        published(held, ending(write, text?.part));
        ended.push(id);
      } catch (error) {
        if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
      }
    });
  }
  return ended;
}
