// forkDialog (seed 000's copy()): a new dialog whose history is a copy of the context of one
// response, remembering where it came from (forkedFrom). The copy gets new ids; its events are
// numbered 1..n, in context order. Responses and events are copied by INSERT … SELECT, one
// statement each whatever the depth, reading the originals through id mappings made here (ids are
// ULIDs, which only the application makes).
import { prisma } from "../db/prisma.js";
import { newDialogId, newEventId, newResponseId } from "../ids.js";
import { readChain, readContextEventIds } from "./context.js";
import { parseDialogFields } from "./dialogs.js";
import { lockDialog, type WriteResult } from "./responses.js";
import { chainTargetNotFound, responseExpired } from "./retention.js";
import { transactionOptions, type Tx } from "./transaction.js";

export interface ForkDialogInput {
  responseId: string;
  /** Default: the original dialog's title. */
  title?: string | null;
}

/** The new dialog (dialogId) and its head: the copy of `responseId`. */
export interface ForkResult extends WriteResult {
  sourceDialogId: string;
}

export async function forkDialog(input: ForkDialogInput): Promise<ForkResult> {
  const { title } = parseDialogFields({ title: input.title });
  return prisma.$transaction(async (tx) => {
    const source = await tx.response.findUnique({
      where: { id: input.responseId },
      select: { dialogId: true, dialog: { select: { title: true, metadata: true, tenantId: true } } },
    });
    if (!source) throw chainTargetNotFound(input.responseId);
    // Holds off a concurrent clearDialog or deleteDialog of the original while it is read.
    await lockDialog(tx, source.dialogId, { whenExpired: () => responseExpired(input.responseId) });

    const chain = await readChain(input.responseId, tx);
    const responseIds = chain.map(() => newResponseId());
    const eventIds = await readContextEventIds(input.responseId, tx);
    const dialogId = newDialogId();
    await tx.dialog.create({
      data: {
        id: dialogId,
        // A fork belongs to the tenant of what it copies (the caller's: checked before).
        tenantId: source.dialog.tenantId,
        title: title ?? source.dialog.title,
        metadata: source.dialog.metadata ?? {},
        forkedFromId: input.responseId,
      },
    });
    await copyResponses(
      tx,
      dialogId,
      chain.map((r) => r.id),
      responseIds,
    );
    await copyEvents(
      tx,
      dialogId,
      chain.map((r) => r.id),
      responseIds,
      eventIds,
    );
    const head = responseIds.at(-1)!;
    await tx.dialog.update({
      where: { id: dialogId },
      // Copies keep their depths, so the head's is the fork point's.
      data: { headId: head, headDepth: chain.length - 1, lastSeq: eventIds.length },
    });
    const { status } = await tx.response.findUniqueOrThrow({ where: { id: head }, select: { status: true } });
    return {
      dialogId,
      responseId: head,
      previousSeq: 0,
      seq: eventIds.length,
      status,
      sourceDialogId: source.dialogId,
    };
  }, transactionOptions);
}

// Both statements list their columns: a column added to Response or Event must be added here too
// to be copied (the fork test compares every field of the copy with the original). A copy holds all
// the events of its original, so it takes its event counts too.
async function copyResponses(tx: Tx, dialogId: string, oldIds: string[], newIds: string[]) {
  // The chain is linear: each copy continues the copy of the response before it.
  const newPrevious = [null, ...newIds.slice(0, -1)];
  await tx.$executeRaw`
    INSERT INTO "Response" (id, "dialogId", "previousResponseId", depth, model, status, "inputTokens",
      "outputTokens", "reasoningTokens", "totalTokens", error, metadata, "createdAt", "completedAt",
      "humanEvents", "aiEvents", "reasoningEvents", "toolCallEvents", "toolResultEvents", "systemEvents")
    SELECT m.new_id, ${dialogId}, m.new_previous, r.depth, r.model, r.status, r."inputTokens",
      r."outputTokens", r."reasoningTokens", r."totalTokens", r.error, r.metadata, r."createdAt", r."completedAt",
      r."humanEvents", r."aiEvents", r."reasoningEvents", r."toolCallEvents", r."toolResultEvents", r."systemEvents"
    FROM unnest(${oldIds}::text[], ${newIds}::text[], ${newPrevious}::text[]) AS m(old_id, new_id, new_previous)
    JOIN "Response" r ON r.id = m.old_id`;
}

async function copyEvents(
  tx: Tx,
  dialogId: string,
  oldResponseIds: string[],
  newResponseIds: string[],
  oldIds: string[],
) {
  if (!oldIds.length) return;
  const newIds = oldIds.map(() => newEventId());
  // WITH ORDINALITY numbers the events 1..n in the order the ids were read: the context's order.
  await tx.$executeRaw`
    INSERT INTO "Event" (id, "dialogId", "responseId", seq, phase, type, content, parts, "modelName",
      "callId", "toolName", args, "isError", "providerFields", metadata, "createdAt")
    SELECT m.new_id, ${dialogId}, rm.new_id, m.seq::int, e.phase, e.type, e.content, e.parts, e."modelName",
      e."callId", e."toolName", e.args, e."isError", e."providerFields", e.metadata, e."createdAt"
    FROM unnest(${oldIds}::text[], ${newIds}::text[]) WITH ORDINALITY AS m(old_id, new_id, seq)
    JOIN "Event" e ON e.id = m.old_id
    JOIN unnest(${oldResponseIds}::text[], ${newResponseIds}::text[]) AS rm(old_id, new_id) ON rm.old_id = e."responseId"`;
}
