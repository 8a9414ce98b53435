// Dialog-level writes. Each returns the dialog's id; the schema re-reads what the query selects.
import { prisma } from "../db/prisma.js";
import { type FieldError, NotFoundError, ValidationError } from "../errors.js";
import type { Prisma } from "../generated/prisma/client.js";
import { newDialogId } from "../ids.js";
import { type Json, jsonObject } from "./json.js";
import { lockDialog, type WriteResult } from "./responses.js";
import { dialogExpired, retentionMs } from "./retention.js";
import { transactionOptions } from "./transaction.js";

export interface DialogFieldsInput {
  title?: string | null;
  metadata?: Json | null;
}

const MAX_TITLE_LENGTH = 500;

export function parseDialogFields(input: DialogFieldsInput) {
  const errors: FieldError[] = [];
  if (input.title != null && input.title.length > MAX_TITLE_LENGTH) {
    errors.push({ path: ["title"], message: `at most ${MAX_TITLE_LENGTH} characters` });
  }
  const metadata = input.metadata === undefined ? undefined : jsonObject(input.metadata, ["metadata"], errors);
  if (errors.length) throw new ValidationError(errors);
  return { title: input.title, metadata: metadata as Prisma.InputJsonObject | undefined };
}

export async function createDialog(input: DialogFieldsInput, tenantId: string) {
  const { title, metadata } = parseDialogFields(input);
  return prisma.dialog.create({
    data: { id: newDialogId(), tenantId, title: title ?? null, metadata },
    select: { id: true },
  });
}

export async function updateDialog(id: string, input: DialogFieldsInput) {
  const { title, metadata } = parseDialogFields(input);
  const now = new Date();
  const { count } = await prisma.dialog.updateMany({
    // An expired dialog is gone for writes, even before the sweeper deletes it.
    where: { id, ...(retentionMs != null && { updatedAt: { gt: new Date(now.getTime() - retentionMs) } }) },
    // `title: null` clears the title; an absent field leaves it alone. Either way updatedAt moves.
    data: { ...(input.title !== undefined && { title }), ...(metadata !== undefined && { metadata }) },
  });
  if (!count) {
    const exists = await prisma.dialog.count({ where: { id } });
    throw exists ? dialogExpired(id) : NotFoundError.dialog(id);
  }
  return { id };
}

export async function deleteDialog(id: string) {
  const { count } = await prisma.dialog.deleteMany({ where: { id } });
  if (!count) throw NotFoundError.dialog(id);
  return { id };
}

/** What clearDialog changed: no seq moved (previousSeq = seq), every response went. */
export interface ClearResult extends Omit<WriteResult, "responseId" | "status"> {
  responseId: null;
  cleared: true;
  deletedResponses: number;
}

/**
 * Seed 000's clear(): every response and event of the dialog goes; the dialog stays, empty, with
 * no head. `lastSeq` keeps its value, so the next event is lastSeq + 1: a seq is never reused in a
 * dialog, and a live client that saw seq n is never shown a different event numbered n.
 */
export async function clearDialog(id: string): Promise<ClearResult> {
  return prisma.$transaction(async (tx) => {
    const { lastSeq } = await lockDialog(tx, id);
    const { count } = await tx.response.deleteMany({ where: { dialogId: id } });
    // An update through Prisma also moves updatedAt: clearing is a write, and extends retention.
    await tx.dialog.update({ where: { id }, data: { headId: null, headDepth: null } });
    return {
      dialogId: id,
      responseId: null,
      previousSeq: lastSeq,
      seq: lastSeq,
      cleared: true,
      deletedResponses: count,
    };
  }, transactionOptions);
}
