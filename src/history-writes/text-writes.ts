// A text delta (streamText, or the model loop typing): appended to the response's open text,
// published at once (no seq moves), and checkpointed to the database at most `checkpointMs` or
// `checkpointChars` after the text grew, before the delta that crossed the bound is acknowledged;
// a checkpoint reads from `texts` and sends only the text added since the one before, and a delta
// reads the text's head (part, type, lengths), never the text before it — nor the head when this
// instance's last append left it (the append checks it as it applies). After a restart without Redis the text so far is the checkpoint: at most
// checkpointMs of deltas, and fewer than checkpointChars characters, are lost, and the agent's
// next delta gets a TextOffsetError telling it where to resend from. A writer that asks for
// `firstCheckpointAtBound` (the model loop) has a text it opens counted as checkpointed empty at its
// opening, so its first checkpoint comes at the same bounds as the others rather than with its
// first delta: an answer committed within them (the commonest, a short one) sends no checkpoint,
// and the same bounds hold for what a restart may lose.
import { NotFoundError, TextOffsetError } from "../errors.js";
import { headOf } from "../live/in-flight-store.js";
import type { InFlightHead } from "../vocabulary/in-flight.js";
import { saveCheckpoint, statusOf } from "../services/in-flight-checkpoints.js";
import { forget, type HeldTexts, notInProgress, openText } from "./held-texts.js";
import { checkDelta, checkSize, type TextDeltaInput, type TextPosition } from "./in-flight-input.js";
import { commitAndPublish } from "./lifecycle-writes.js";

/** How many texts' heads an instance remembers from its own appends (text-writes below). */
const KNOWN_HEADS = 10_000;

/** How a writer's texts are checkpointed (see the file's comment). */
export interface TextWriterOptions {
  firstCheckpointAtBound?: boolean;
}

export function appendTextDelta(
  held: HeldTexts,
  input: TextDeltaInput,
  tenantId?: string,
  options: TextWriterOptions = {},
): Promise<TextPosition> {
  checkDelta(input, held.options.maxDeltaChars);
  return held.queue.run(input.responseId, async () => {
    // The head this instance's last append left, when the delta goes on the same text: the append
    // checks it (part, type, length) as it applies; refused, the delta is taken again from the head held.
    const known = held.heads.get(input.responseId);
    if (known?.type === input.type && (tenantId == null || known.tenantId === tenantId)) {
      const position = await appendAt(held, input, { text: known, opened: false });
      if ("responseId" in position) return position;
      held.heads.delete(input.responseId);
    }
    const taking = await textTakingDelta(held, input, tenantId);
    if (taking.opened && options.firstCheckpointAtBound && !held.checkpoints.has(input.responseId)) {
      held.checkpoints.set(input.responseId, { at: held.clock(), length: taking.text.length });
    }
    const position = await appendAt(held, input, taking);
    if ("responseId" in position) return position;
    throw new TextOffsetError(position.held?.length ?? 0, position.held?.part ?? null, position.offset);
  });
}

/** Appends the delta to `text` (the head it was read or known as); refused, what is held instead. */
async function appendAt(
  held: HeldTexts,
  input: TextDeltaInput,
  { text, opened }: { text: InFlightHead; opened: boolean },
): Promise<TextPosition | { held: InFlightHead | null; offset: number }> {
  const offset = input.offset ?? text.length;
  checkSize(text, input.delta, held.store.writeLimits.eventBytes);
  const now = held.clock();
  const due = checkpointDue(held, text, text.length + input.delta.length, now);
  // A text opened by this delta was just read IN_PROGRESS from its row: no need to ask again.
  if (due && !opened) await checkStillInProgress(held, text);
  const at = { part: text.part, type: text.type, offset };
  const outcome = await held.texts.append(input.responseId, at, input.delta, now);
  if (!outcome.appended) return { held: outcome.held, offset };
  const { dialogId, responseId, part, type } = text;
  // Texts another instance ends are not forgotten here: the map is emptied when it grows this large.
  if (held.heads.size >= KNOWN_HEADS && !held.heads.has(responseId)) held.heads.clear();
  held.heads.set(responseId, { ...text, length: outcome.length, bytes: outcome.bytes, at: now });
  held.live.publishText({ dialogId, responseId, part, type, offset, delta: input.delta });
  if (due) await checkpoint(held, text, outcome.length, now);
  return { responseId, part, type, offset, length: outcome.length };
}

/**
 * The open text the delta goes to (its head): held, or opened; of the delta's type. `opened`: it
 * was opened (its row read, IN_PROGRESS) for this delta.
 */
async function textTakingDelta(
  held: HeldTexts,
  input: TextDeltaInput,
  tenantId?: string,
): Promise<{ text: InFlightHead; opened: boolean }> {
  const heldNow = await held.texts.head(input.responseId);
  if (heldNow && tenantId != null && heldNow.tenantId !== tenantId) throw NotFoundError.response(input.responseId);
  const text = heldNow ?? headOf(await openText(held, input, tenantId));
  const opened = !heldNow;
  if (text.type === input.type) return { text, opened };
  // Reasoning ends where the answer starts (and the other way round): the open text is a step.
  if (text.length > 0) {
    await commitAndPublish(held, await held.texts.get(input.responseId));
    return { text: headOf(await openText(held, input, tenantId)), opened: true };
  }
  const { length: _length, bytes: _bytes, ...empty } = text;
  await held.texts.put({ ...empty, type: input.type, text: "" });
  return { text: { ...text, type: input.type }, opened };
}

function checkpointDue(held: HeldTexts, text: InFlightHead, length: number, now: number) {
  const last = held.checkpoints.get(text.responseId);
  const { checkpointMs, checkpointChars } = held.options;
  return !last || now - last.at >= checkpointMs || length - last.length >= checkpointChars;
}

async function checkpoint(held: HeldTexts, text: InFlightHead, length: number, now: number) {
  held.checkpoints.set(text.responseId, { at: now, length });
  const known = held.stored.get(text.responseId);
  const stored = known?.part === text.part ? known : undefined;
  // Read from where the stored text ends, when this instance knows that place in bytes.
  const since = stored?.bytes === undefined ? null : { part: text.part, length: stored.end, bytes: stored.bytes };
  const tail = await held.texts.tail(text.responseId, text.part, since);
  if (!tail) return;
  const end = await saveCheckpoint(held.store, tail, stored?.end);
  if (end == null) return void held.stored.delete(text.responseId);
  // Stored to exactly where this read ended: the next read starts there.
  const bytes = end === tail.head.length ? tail.head.bytes : undefined;
  held.stored.set(text.responseId, { part: text.part, end, bytes });
}

/**
 * Held text of a response that clearDialog, deleteDialog or retention removed (they delete rows
 * without looking for open text), or that another instance finished without Redis, is noticed
 * when its next checkpoint is due, before the delta is taken: the text is forgotten and the delta
 * refused.
 */
async function checkStillInProgress(held: HeldTexts, text: InFlightHead) {
  const status = await statusOf(held.store, text.dialogId, text.responseId);
  if (status === "IN_PROGRESS") return;
  await forget(held, text);
  if (!status) throw NotFoundError.response(text.responseId);
  throw notInProgress(text.responseId, status);
}
