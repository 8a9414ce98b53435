// importMessages: a conversation in any MessageFormat (src/formats reads it) stored as chained
// responses, in one write through the store's primitive — all of it or, on any problem, nothing.
// It lands where createResponse would (previousResponseId, the dialog's head, or a new dialog) and
// is written set-based: one INSERT for the responses and one for the events, whatever the length.
import { type FieldError, ValidationError } from "../errors.js";
import { importEvents, type MessageFormat } from "../formats/index.js";
import { groupIntoTurns } from "../formats/turns.js";
import { newDialogId, newResponseId } from "../ids.js";
import { writeDialog } from "../store/locked-dialog.js";
import { responseExpired } from "../store/retention-window.js";
import type { Store, WriteLimits } from "../store/store.js";
import { checkEventCount, checkEventSize } from "./event-input.js";
import { isJsonObject } from "../vocabulary/json.js";
import { checkToolResults, findParent } from "./responses.js";
import type { WriteResult } from "./write-result.js";

export interface ImportMessagesInput {
  dialogId?: string | null;
  previousResponseId?: string | null;
  format: MessageFormat;
  messages: unknown;
  /** Recorded on every response the import creates. */
  model?: string | null;
  /** The tenant a new dialog is created for. */
  tenantId: string;
  /** Items added as they are (a conversation's items): no turn is left waiting for an answer. */
  complete?: boolean;
}

/**
 * A WriteResult for the last response created — its own seq range, so it can be published as a
 * delta (subscribers read the earlier responses' events as a gap) — plus every response created,
 * oldest first, and the dialog's last seq before the import.
 */
export interface ImportResult extends WriteResult {
  responseIds: string[];
  importedAfterSeq: number;
}

export async function importMessages(store: Store, input: ImportMessagesInput): Promise<ImportResult> {
  checkMessageSizes(store.writeLimits, input.messages);
  const imported = importEvents(input.format, input.messages);
  checkEventCount(store.writeLimits, imported.length, ["messages"]);
  const turns = groupIntoTurns(imported);
  const ordered = turns.flatMap((turn) => [...turn.input, ...turn.output]);

  const parent = input.previousResponseId ? await findParent(store, input.previousResponseId, input.dialogId) : null;
  const existingDialogId = parent?.dialogId ?? input.dialogId ?? null;
  const target = existingDialogId
    ? { id: existingDialogId, whenExpired: parent ? () => responseExpired(parent.id) : undefined }
    : { create: { id: newDialogId(), tenantId: input.tenantId } };
  const outcome = await writeDialog(store, target, async (write) => {
    const tip = parent ?? write.head;
    await checkToolResults(
      write.session,
      ordered.map((item) => item.event),
      0,
      tip,
      (index) => ordered[index]!.callIdPath ?? ordered[index]!.path,
    );
    return write.addTurns(
      turns.map((turn) => ({
        id: newResponseId(),
        model: input.model ?? null,
        // A conversation ending with a message to the model is waiting for its answer.
        status: turn.output.length > 0 || input.complete ? "COMPLETED" : "IN_PROGRESS",
        // An import records what was said, not what it cost: it carries no usage and charges no key.
        usage: { inputTokens: null, outputTokens: null, reasoningTokens: null, totalTokens: null, cachedTokens: null },
        apiKeyId: null,
        error: null,
        metadata: {},
        idempotencyKey: null,
        requestHash: null,
        input: turn.input.map((item) => item.event),
        output: turn.output.map((item) => item.event),
      })),
      tip,
    );
  });
  const responses = outcome.value;
  const last = responses.at(-1)!;
  const lastTurn = turns.at(-1)!;
  return {
    dialogId: outcome.dialog.id,
    responseId: last.id,
    responseIds: responses.map((response) => response.id),
    // The last response's own seq range.
    previousSeq: outcome.seq - lastTurn.input.length - lastTurn.output.length,
    seq: outcome.seq,
    status: last.status,
    importedAfterSeq: outcome.previousSeq,
  };
}

/** Each message is held to the size limit of the events it becomes (and each makes at least one). */
function checkMessageSizes(limits: WriteLimits, body: unknown) {
  // An Anthropic body holds its list under `messages`.
  const messages = isJsonObject(body) ? body.messages : body;
  if (!Array.isArray(messages)) return; // the format reports it
  checkEventCount(limits, messages.length, ["messages"]);
  const errors: FieldError[] = [];
  messages.forEach((message, index) => checkEventSize(limits, message, ["messages", String(index)], errors));
  if (errors.length) throw new ValidationError(errors);
}
