// Dialog-level writes. Each returns the dialog's id; the schema re-reads what the query selects.
import { prisma } from "../db/prisma.js";
import { type FieldError, NotFoundError, ValidationError } from "../errors.js";
import type { Prisma } from "../generated/prisma/client.js";
import { newDialogId } from "../ids.js";
import { type Json, jsonObject } from "./json.js";

export interface DialogFieldsInput {
  title?: string | null;
  metadata?: Json | null;
}

const MAX_TITLE_LENGTH = 500;

function parseDialogFields(input: DialogFieldsInput) {
  const errors: FieldError[] = [];
  if (input.title != null && input.title.length > MAX_TITLE_LENGTH) {
    errors.push({ path: ["title"], message: `at most ${MAX_TITLE_LENGTH} characters` });
  }
  const metadata = input.metadata === undefined ? undefined : jsonObject(input.metadata, ["metadata"], errors);
  if (errors.length) throw new ValidationError(errors);
  return { title: input.title, metadata: metadata as Prisma.InputJsonObject | undefined };
}

export async function createDialog(input: DialogFieldsInput) {
  const { title, metadata } = parseDialogFields(input);
  return prisma.dialog.create({ data: { id: newDialogId(), title: title ?? null, metadata }, select: { id: true } });
}

export async function updateDialog(id: string, input: DialogFieldsInput) {
  const { title, metadata } = parseDialogFields(input);
  const { count } = await prisma.dialog.updateMany({
    where: { id },
    // `title: null` clears the title; an absent field leaves it alone.
    data: { ...(input.title !== undefined && { title }), ...(metadata !== undefined && { metadata }) },
  });
  if (!count) throw NotFoundError.dialog(id);
  return { id };
}

export async function deleteDialog(id: string) {
  const { count } = await prisma.dialog.deleteMany({ where: { id } });
  if (!count) throw NotFoundError.dialog(id);
  return { id };
}
