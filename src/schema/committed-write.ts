// What a mutation does around a write, in one place: the write goes through the app's one door
// (`ctx.writes`, src/history-writes/, which publishes it after the commit), the written ids are
// remembered for later tenant checks, and the answer is the written rows when they suffice. The
// ids the caller named were checked to be its tenant's before the resolver ran, by the field's
// declared rule (src/schema/tenant-scope-plugin.ts). Resolvers say which write to make.
import type { PrismaQuery } from "./own-columns.js";
import type { Prisma } from "../generated/prisma/client.js";
import type { ClearedPayload, DeletedPayload } from "../live/live-bus.js";
import type { Context } from "./context.js";
import type { WriteResult } from "../services/write-result.js";
import { answerFromWrite } from "./answer-from-write.js";

type Committed = WriteResult | (ClearedPayload & { responseId: null }) | DeletedPayload;

/** Runs `write` (which publishes), remembers what it committed for tenant checks, and returns it. */
export async function committedWrite<W extends Committed>(ctx: Context, write: () => Promise<W>): Promise<W> {
  const written = await write();
  if (!("deleted" in written)) ctx.scope.remember(written);
  return written;
}

/** A GraphQL ID argument as the string the services take. */
export const idOrNull = (id: string | number | null | undefined) => (id == null ? null : String(id));

/** The written response in the shape `query` asks for: from the write's rows, or read. */
export function answerWithResponse(ctx: Context, written: WriteResult, query: PrismaQuery) {
  const read = {
    ...(query as Prisma.ResponseDefaultArgs),
    where: { id: written.responseId, dialogId: written.dialogId },
  };
  return answerFromWrite(written, query) ?? ctx.store.prisma.response.findUniqueOrThrow(read);
}

/** The written dialog in the shape `query` asks for. */
export function answerWithDialog(ctx: Context, written: { dialogId: string }, query: PrismaQuery) {
  return ctx.store.prisma.dialog.findUniqueOrThrow({
    ...(query as Prisma.DialogDefaultArgs),
    where: { id: written.dialogId },
  });
}
