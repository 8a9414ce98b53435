// importMessages: a conversation in any MessageFormat (src/formats reads it) stored as
// chained responses, in one transaction — all of it or, on any problem, nothing. It lands where
// createResponse would (previousResponseId, the dialog's head, or a new dialog) and is written
// set-based: one INSERT for the responses and one for the events, whatever the length.
import { prisma } from "../db/prisma.js";
import { type FieldError, ValidationError } from "../errors.js";
import { importEvents, type MessageFormat } from "../formats/index.js";
import { groupIntoTurns } from "../formats/turns.js";
import type { Prisma } from "../generated/prisma/client.js";
import { newResponseId } from "../ids.js";
import { checkEventCount, checkEventSize } from "./event-input.js";
import { eventCounts } from "./event-counts.js";
import { isJsonObject } from "./json.js";
import { checkToolResults, eventRows, openChain, type WriteResult } from "./responses.js";
import { transactionOptions } from "./transaction.js";

export interface ImportMessagesInput {
  dialogId?: string | null;
  previousResponseId?: string | null;
  format: MessageFormat;
  messages: unknown;
  /** Recorded on every response the import creates. */
  model?: string | null;
  /** The tenant a new dialog is created for. */
  tenantId: string;
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

export async function importMessages(input: ImportMessagesInput): Promise<ImportResult> {
  checkMessageSizes(input.messages);
  const imported = importEvents(input.format, input.messages);
  checkEventCount(imported.length, ["messages"]);
  const turns = groupIntoTurns(imported);
  const ordered = turns.flatMap((turn) => [...turn.input, ...turn.output]);

  return prisma.$transaction(async (tx) => {
    const now = new Date();
    const { dialogId, parent, lastSeq } = await openChain(tx, input, now);
    await checkToolResults(
      tx,
      ordered.map((item) => item.event),
      0,
      parent,
      (index) => ordered[index]!.callIdPath ?? ordered[index]!.path,
    );

    const responses: Prisma.ResponseCreateManyInput[] = [];
    const events: Prisma.EventCreateManyInput[] = [];
    let previous = parent;
    let seq = lastSeq;
    let lastTurnAfterSeq = lastSeq;
    for (const turn of turns) {
      lastTurnAfterSeq = seq;
      const id = newResponseId();
      const complete = turn.output.length > 0;
      const endSeq = seq + turn.input.length + turn.output.length;
      responses.push({
        id,
        dialogId,
        previousResponseId: previous?.id ?? null,
        depth: previous ? previous.depth + 1 : 0,
        model: input.model ?? null,
        // A conversation ending with a message to the model is waiting for its answer.
        status: complete ? "COMPLETED" : "IN_PROGRESS",
        createdAt: now,
        completedAt: complete ? now : null,
        // Like createResponse: a finished response records the seq its status became final at.
        finishedAtSeq: complete ? endSeq : null,
        ...eventCounts([...turn.input, ...turn.output].map((item) => item.event)),
      });
      for (const [phase, part] of [
        ["INPUT", turn.input],
        ["OUTPUT", turn.output],
      ] as const) {
        const place = { dialogId, responseId: id, afterSeq: seq, now };
        events.push(
          ...eventRows(
            place,
            part.map((item) => item.event),
            phase,
          ),
        );
        seq += part.length;
      }
      previous = { id, dialogId, depth: previous ? previous.depth + 1 : 0 };
    }
    // Rows of one INSERT may reference each other: foreign keys are checked at its end.
    await tx.response.createMany({ data: responses });
    await tx.event.createMany({ data: events });
    await tx.dialog.update({
      where: { id: dialogId },
      data: { lastSeq: seq, headId: previous!.id, headDepth: previous!.depth },
    });
    return {
      dialogId,
      responseId: previous!.id,
      responseIds: responses.map((response) => response.id),
      previousSeq: lastTurnAfterSeq,
      seq,
      status: responses.at(-1)!.status!,
      importedAfterSeq: lastSeq,
    };
  }, transactionOptions);
}

/** Each message is held to the size limit of the events it becomes (and each makes at least one). */
function checkMessageSizes(body: unknown) {
  // An Anthropic body holds its list under `messages`.
  const messages = isJsonObject(body) ? body.messages : body;
  if (!Array.isArray(messages)) return; // the format reports it
  checkEventCount(messages.length, ["messages"]);
  const errors: FieldError[] = [];
  messages.forEach((message, index) => checkEventSize(message, ["messages", String(index)], errors));
  if (errors.length) throw new ValidationError(errors);
}
