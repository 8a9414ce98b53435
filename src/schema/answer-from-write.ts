// A mutation that returns the Response it just wrote usually needs nothing but that row and its
// dialog's, and the write statement returns both as committed. Pothos tells the resolver what the
// selection needs from Prisma (`query`); when that is no more than those two rows, they are the
// answer and the request costs one statement instead of three.
import type { Dialog, Response } from "../generated/prisma/client.js";
import type { WriteResult } from "../services/responses.js";
import type { PrismaQuery } from "./own-columns.js";

/** The written rows in the shape `query` asks for, or undefined when it asks for more. */
export function answerFromWrite(write: WriteResult, query: PrismaQuery): (Response & { dialog: Dialog }) | undefined {
  if (!write.written || query.select) return undefined;
  const relations = Object.entries(query.include ?? {});
  if (!relations.every(([name, shape]) => name === "dialog" && isPlainSelection(shape))) return undefined;
  return { ...write.written.response, dialog: write.written.dialog };
}

/** `true`, or a selection of the model's own columns only (no relation below it). */
function isPlainSelection(shape: unknown): boolean {
  if (shape === true) return true;
  if (typeof shape !== "object" || shape === null) return false;
  const { select, ...rest } = shape as { select?: Record<string, unknown> };
  return Object.keys(rest).length === 0 && select != null && Object.values(select).every((value) => value === true);
}
