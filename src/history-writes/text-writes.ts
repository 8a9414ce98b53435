// A text delta (streamText, or the model loop typing): appended to the response's open text,
// published at once (no seq moves), and checkpointed to the database at most `checkpointMs` or
// `checkpointChars` after the text grew, before the delta that crossed the bound is acknowledged;
// a checkpoint sends only the text added since the one before. After a restart without Redis the text so far is the checkpoint: at most
// checkpointMs of deltas, and fewer than checkpointChars characters, are lost, and the agent's
// next delta gets a TextOffsetError telling it where to resend from.
import { NotFoundError, TextOffsetError } from "../errors.js";
import type { InFlightState } from "../vocabulary/in-flight.js";
import { saveCheckpoint, statusOf } from "../services/in-flight-checkpoints.js";
import { forget, type HeldTexts, notInProgress, openText } from "./held-texts.js";
import { checkDelta, checkSize, type TextDeltaInput, type TextPosition } from "./in-flight-input.js";
import { commitAndPublish } from "./lifecycle-writes.js";

export function appendTextDelta(held: HeldTexts, input: TextDeltaInput, tenantId?: string): Promise<TextPosition> {
  checkDelta(input, held.options.maxDeltaChars);
  return held.queue.run(input.responseId, async () => {
    const { text, opened } = await textTakingDelta(held, input, tenantId);
    const offset = input.offset ?? text.text.length;
    checkSize(text, input.delta, held.store.writeLimits.eventBytes);
    const now = held.clock();
    const due = checkpointDue(held, text, text.text.length + input.delta.length, now);
    // A text opened by this delta was just read IN_PROGRESS from its row: no need to ask again.
    if (due && !opened) await checkStillInProgress(held, text);
    const at = { part: text.part, type: text.type, offset };
    const outcome = await held.texts.append(input.responseId, at, input.delta, now);
    if (!outcome.appended) {
      throw new TextOffsetError(outcome.held?.text.length ?? 0, outcome.held?.part ?? null, offset);
    }
    const { dialogId, responseId, part, type } = text;
    held.live.publishText({ dialogId, responseId, part, type, offset, delta: input.delta });
    if (due) await checkpoint(held, text, outcome.length, now);
    return { responseId, part, type, offset, length: outcome.length };
  });
}

/**
 * The open text the delta goes to: held, or opened; of the delta's type. `opened`: it was opened
 * (its row read, IN_PROGRESS) for this delta.
 */
async function textTakingDelta(
  held: HeldTexts,
  input: TextDeltaInput,
  tenantId?: string,
): Promise<{ text: InFlightState; opened: boolean }> {
  const heldNow = await held.texts.get(input.responseId);
  if (heldNow && tenantId != null && heldNow.tenantId !== tenantId) throw NotFoundError.response(input.responseId);
  const text = heldNow ?? (await openText(held, input, tenantId));
  const opened = !heldNow;
  if (text.type === input.type) return { text, opened };
  // Reasoning ends where the answer starts (and the other way round): the open text is a step.
  if (text.text) {
    await commitAndPublish(held, text);
    return { text: await openText(held, input, tenantId), opened: true };
  }
  const retyped = { ...text, type: input.type };
  await held.texts.put(retyped);
  return { text: retyped, opened };
}

function checkpointDue(held: HeldTexts, text: InFlightState, length: number, now: number) {
  const last = held.checkpoints.get(text.responseId);
  const { checkpointMs, checkpointChars } = held.options;
  return !last || now - last.at >= checkpointMs || length - last.length >= checkpointChars;
}

async function checkpoint(held: HeldTexts, text: InFlightState, length: number, now: number) {
  held.checkpoints.set(text.responseId, { at: now, length });
  const state = await held.texts.get(text.responseId);
  if (state?.part !== text.part) return;
  const stored = held.stored.get(text.responseId);
  const end = await saveCheckpoint(held.store, state, stored?.part === state.part ? stored.end : undefined);
  if (end == null) held.stored.delete(text.responseId);
  else held.stored.set(text.responseId, { part: state.part, end });
}

/**
 * Held text of a response that clearDialog, deleteDialog or retention removed (they delete rows
 * without looking for open text), or that another instance finished without Redis, is noticed
 * when its next checkpoint is due, before the delta is taken: the text is forgotten and the delta
 * refused.
 */
async function checkStillInProgress(held: HeldTexts, text: InFlightState) {
  const status = await statusOf(held.store, text.responseId);
  if (status === "IN_PROGRESS") return;
  await forget(held, text);
  if (!status) throw NotFoundError.response(text.responseId);
  throw notInProgress(text.responseId, status);
}
