// What a mutation does around a write, in one place: the ids the caller named are checked to be
// its tenant's (before any work), the service writes (and returns only after the commit), the
// written ids are remembered for later tenant checks, the delta is published (after the commit,
// never inside it), and the answer is the written rows when they suffice. Resolvers say which
// ids they name and which service call to make; nothing else.
import type { PrismaQuery } from "./own-columns.js";
import { rememberWrite } from "../auth/tenant-scope.js";
import { prisma } from "../db/prisma.js";
import type { Prisma } from "../generated/prisma/client.js";
import type { ClearedPayload, DeletedPayload, DeltaPayload } from "../live/live-bus.js";
import type { Context } from "../server/context.js";
import { chainTargetNotFound } from "../services/retention.js";
import type { WriteResult } from "../services/write-result.js";
import { answerFromWrite } from "./answer-from-write.js";

/** The ids a mutation names, each checked to be the caller's tenant's. */
export interface NamedIds {
  dialogId?: string | null;
  /** A response written to (not found: "Response <id> not found"). */
  responseId?: string | null;
  /** A response chained to or copied (not found says it may have expired or been deleted). */
  chainedTo?: string | null;
}

type Committed = WriteResult | (ClearedPayload & { responseId: null }) | DeletedPayload;

/** Checks `ids`, runs `write`, remembers and publishes what it committed, and returns it. */
export async function committedWrite<W extends Committed>(
  ctx: Context,
  ids: NamedIds,
  write: () => Promise<W>,
): Promise<W> {
  await ctx.scope.optionalResponse(ids.chainedTo, chainTargetNotFound);
  await ctx.scope.optionalResponse(ids.responseId);
  await ctx.scope.optionalDialog(ids.dialogId);
  const written = await write();
  if (!("deleted" in written)) rememberWrite(written, ctx.scope.tenantId);
  ctx.live.publish(written as DeltaPayload | ClearedPayload | DeletedPayload);
  return written;
}

/** A GraphQL ID argument as the string the services take. */
export const idOrNull = (id: string | number | null | undefined) => (id == null ? null : String(id));

/** The written response in the shape `query` asks for: from the write's rows, or read. */
export function answerWithResponse(written: WriteResult, query: PrismaQuery) {
  const read = { ...(query as Prisma.ResponseDefaultArgs), where: { id: written.responseId } };
  return answerFromWrite(written, query) ?? prisma.response.findUniqueOrThrow(read);
}

/** The written dialog in the shape `query` asks for. */
export function answerWithDialog(written: { dialogId: string }, query: PrismaQuery) {
  return prisma.dialog.findUniqueOrThrow({ ...(query as Prisma.DialogDefaultArgs), where: { id: written.dialogId } });
}
