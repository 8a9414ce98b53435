// Which stored chain a Chat Completions or Messages request continues. Such a request carries the
// whole conversation every time, so its messages are matched to the caller's stored contexts: the
// longest stored context equal to a beginning of the messages is the response the new turn
// continues, and the messages after it are the turn's input. A chat that grows is one chain; a
// regenerated answer or an edited message matches an earlier response and becomes a branch of it;
// no match starts a dialog. Cost: one pass over the messages (their prefix hashes,
// src/formats/chat-context-hash.ts) and one indexed query, whatever the length of the chat.
import { type ChatHashedEvent, chatPrefixHashes, normalMessages } from "../formats/chat-context-hash.js";
import { expiryCutoff } from "../store/retention-window.js";
import type { Store } from "../store/store.js";

export interface ChatMatch {
  /** The response the new turn continues; null when nothing matched. */
  previousResponseId: string | null;
  /** Its dialog (null when nothing matched). */
  dialogId: string | null;
  /** Where in the request's events the new turn's input starts. */
  inputFrom: number;
}

/**
 * The longest stored context of `tenantId` (only in `dialogId`, when given) that `events` begin
 * with, leaving at least one event for the new turn; ties go to the newest response.
 */
export async function matchChatContext(
  store: Store,
  tenantId: string,
  events: readonly ChatHashedEvent[],
  dialogId: string | null = null,
): Promise<ChatMatch> {
  const messages = normalMessages(events).filter((message) => message.end < events.length);
  const none = { previousResponseId: null, dialogId: null, inputFrom: 0 };
  if (!messages.length) return none;
  const hashes = chatPrefixHashes(tenantId, messages);
  const cutoff = expiryCutoff(new Date(), store.retentionMs);
  // The responses holding one of the hashes are found through the chatHash index first (the
  // planner, without statistics on PGlite, would otherwise start from the tenant's dialogs); only
  // the one with the longest context is returned.
  const [best] = await store.database.query<{ id: string; dialogId: string; at: number }>(
    `WITH found AS MATERIALIZED (
       SELECT id, "dialogId", "chatHash", "createdAt" FROM "Response" WHERE "chatHash" = ANY($1::text[]))
     SELECT f.id, f."dialogId", (h.k - 1)::int AS at
     FROM found f
     JOIN unnest($1::text[]) WITH ORDINALITY AS h(hash, k) ON h.hash = f."chatHash"
     JOIN "Dialog" d ON d.id = f."dialogId"
     WHERE d."tenantId" = $2 AND ($3::text IS NULL OR f."dialogId" = $3)
       AND ($4::timestamp IS NULL OR d."updatedAt" > $4::timestamp)
     ORDER BY h.k DESC, f."createdAt" DESC, f.id DESC
     LIMIT 1`,
    [hashes, tenantId, dialogId, cutoff],
  );
  if (!best) return none;
  return { previousResponseId: best.id, dialogId: best.dialogId, inputFrom: messages[best.at]!.end };
}
