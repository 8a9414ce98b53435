// The chat hash of a response (Response.chatHash; src/formats/chat-context-hash.ts says what it
// is): set by the write primitive when a response gets its final status — in the statement that
// inserts a finished turn, or in the one that finishes a turn begun earlier — from the events the
// response then holds and the hash of its parent.
import { Prisma } from "../generated/prisma/client.js";
import { type ChatHashedEvent, chatHashSeed, normalMessageTexts } from "../formats/chat-context-hash.js";
import { run, type SqlRunner } from "./sql.js";

/** The chat hash of the context `parent` ends (the tenant's seed for none); null when it has none. */
export async function chatHashAfter(
  session: SqlRunner,
  dialog: { id: string; tenantId: string },
  parent: { id: string } | null,
): Promise<Buffer | null> {
  const { tenantId } = dialog;
  if (!parent) return chatHashSeed(tenantId);
  const [row] = await run<{ chatHash: string | null }>(
    Prisma.sql`SELECT "chatHash" FROM "Response" WHERE "dialogId" = ${dialog.id} AND id = ${parent.id}`,
    session,
  );
  return row?.chatHash ? Buffer.from(row.chatHash, "hex") : null;
}

/**
 * The chat hash of a finishing response (the value of its `SET` item), from its events as written
 * so far in this write (`known`: those events, read under the lock and followed by what this write
 * appended). Its `previousResponseId` is read from the row the statement updates.
 */
export async function finalChatHash(
  session: SqlRunner,
  dialog: { id: string; tenantId: string },
  responseId: string,
  known?: readonly ChatHashedEvent[],
) {
  const { tenantId } = dialog;
  const events =
    known ??
    (await run<ChatHashedEvent>(
      Prisma.sql`SELECT type, content, parts, "callId", "toolName", args, "isError" FROM "Event"
      WHERE "dialogId" = ${dialog.id} AND "responseId" = ${responseId} ORDER BY seq`,
      session,
    ));
  return Prisma.sql`"chatContextHash"("previousResponseId", ${tenantId}, ${normalMessageTexts(events)}::text[])`;
}

/** The same events as a column of a statement reading Response rows as `r` (a JSON array, in seq order). */
export const chatHashedEventsOf = Prisma.sql`(SELECT COALESCE(jsonb_agg(jsonb_build_object('type', e.type,
    'content', e.content, 'parts', e.parts, 'callId', e."callId", 'toolName', e."toolName", 'args', e.args,
    'isError', e."isError") ORDER BY e.seq), '[]'::jsonb) FROM "Event" e
    WHERE e."dialogId" = r."dialogId" AND e."responseId" = r.id)`;
