// Which stored chain a Chat Completions or Messages request continues. Such a request carries the
// whole conversation every time, so its messages are matched to the caller's stored contexts: the
// longest stored context equal to a beginning of the messages is the response the new turn
// continues, and the messages after it are the turn's input. A chat that grows is one chain; a
// regenerated answer or an edited message matches an earlier response and becomes a branch of it;
// no match starts a dialog. Cost: one pass over the messages (their prefix hashes,
// src/formats/chat-context-hash.ts) and one indexed query of a few hashes, whatever the length of
// the chat; a second query of the other hashes only when none of the longest few matched.
//
// Every message is hashed on every request, the matched ones too: the request's messages are only
// known to equal a stored chain once they are hashed, so that is what an exact match costs.
import {
  ChatHashChain,
  type ChatHashedEvent,
  chatHashHex,
  chatHashSeed,
  chatPrefixHashes,
  normalMessages,
  type PlainForm,
  plainChatForm,
} from "../formats/chat-context-hash.js";
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
 * How many of the longest prefixes the first query probes: a chat that grows (or a regenerated
 * answer) continues the prefix without its last message or two, so it is found there, and the
 * query carries a few hashes instead of one a message.
 */
const FIRST_PROBES = 4;

/**
 * The longest stored context of `tenantId` (only in `dialogId`, when given) that `events` begin
 * with, leaving at least one event for the new turn; ties go to the newest response. `chain` hashes
 * the messages (given by tests, to count them).
 */
export async function matchChatContext(
  store: Store,
  tenantId: string,
  events: readonly ChatHashedEvent[],
  dialogId: string | null = null,
  chain = new ChatHashChain(chatHashSeed(tenantId)),
): Promise<ChatMatch> {
  const messages = normalMessages(events).filter((message) => message.end < events.length);
  if (!messages.length) return NO_MATCH;
  const hashes = chatPrefixHashes(tenantId, messages, chain);
  // Only where each message ends is kept across the probes' awaits, not the messages' texts: what
  // a request of thousands of messages leaves alive while it waits is copied by each young GC.
  const ends = messages.map((message) => message.end);
  return longestMatch(store, tenantId, hashes, (at) => ends[at]!, dialogId);
}

/**
 * matchChatContext for Chat Completions messages that are all plain (`forms`: plainChatForms of
 * them — text only, one event each), hashed straight from the messages as sent, with no events and
 * no normal-form objects; `inputFrom` is a message index (the same as the event index).
 */
export async function matchPlainChat(
  store: Store,
  tenantId: string,
  messages: readonly unknown[],
  forms: readonly PlainForm[],
  dialogId: string | null = null,
  chain = new ChatHashChain(chatHashSeed(tenantId)),
): Promise<ChatMatch> {
  // Every message but the last, which is left for the new turn.
  const hashes: string[] = new Array(Math.max(0, messages.length - 1));
  for (let at = 0; at < hashes.length; at++) {
    const [open, close] = forms[at]!;
    hashes[at] = chain.extend(JSON.stringify((messages[at] as { content: string }).content), open, close);
  }
  if (!hashes.length) return NO_MATCH;
  return longestMatch(store, tenantId, hashes, (at) => at + 1, dialogId);
}

/** Each message's plain form, or null when any message is not plain. */
export function plainChatForms(messages: readonly unknown[]): PlainForm[] | null {
  const forms: PlainForm[] = new Array(messages.length);
  for (let at = 0; at < messages.length; at++) {
    const form = plainChatForm(messages[at]);
    if (!form) return null;
    forms[at] = form;
  }
  return forms;
}

const NO_MATCH: ChatMatch = Object.freeze({ previousResponseId: null, dialogId: null, inputFrom: 0 });

/** The longest prefix of `hashes` stored for the tenant: a few longest first, the rest only when none of them matched. */
async function longestMatch(
  store: Store,
  tenantId: string,
  hashes: readonly string[],
  endOf: (at: number) => number,
  dialogId: string | null,
): Promise<ChatMatch> {
  const cutoff = expiryCutoff(new Date(), store.retentionMs);
  const probe = (from: number, to: number) =>
    longestStored(store, hashes.slice(from, to), from, tenantId, dialogId, cutoff);
  const split = Math.max(0, hashes.length - FIRST_PROBES);
  const best = (await probe(split, hashes.length)) ?? (split > 0 ? await probe(0, split) : null);
  if (!best) return NO_MATCH;
  return { previousResponseId: best.id, dialogId: best.dialogId, inputFrom: endOf(best.at) };
}

/** The longest of `hashes` (prefix hashes from prefix `from` on) that a stored response of the tenant has. */
async function longestStored(
  store: Store,
  hashes: readonly string[],
  from: number,
  tenantId: string,
  dialogId: string | null,
  cutoff: string | null,
): Promise<{ id: string; dialogId: string; at: number } | null> {
  // Longest prefix first, one probe of Response_chatHash_idx each, stopping at the first found.
  // The probes, and the check of the found response's dialog, are LATERAL subqueries, so that the
  // planner (which has no statistics on PGlite) cannot start from the tenant's dialogs instead. The
  // hashes are seeded by the tenant, so the tenant check is a second lock on the door, not a filter.
  const [best] = await store.database.query<{ id: string; dialogId: string; at: number }>(
    `SELECT m.id, m."dialogId", (h.k - 1)::int AS at
     FROM (SELECT hash, k FROM unnest($1::text[]) WITH ORDINALITY AS u(hash, k) ORDER BY k DESC) h
     CROSS JOIN LATERAL (
       SELECT r.id, r."dialogId" FROM "Response" r
       WHERE r."chatHash" = h.hash AND ($3::text IS NULL OR r."dialogId" = $3)
       ORDER BY r."createdAt" DESC, r.id DESC
       LIMIT 1) m
     CROSS JOIN LATERAL (
       SELECT 1 FROM "Dialog" d
       WHERE d.id = m."dialogId" AND d."tenantId" = $2 AND ($4::timestamp IS NULL OR d."updatedAt" > $4::timestamp)
       LIMIT 1) owned
     ORDER BY h.k DESC
     LIMIT 1`,
    [hashes.map(chatHashHex), tenantId, dialogId, cutoff],
  );
  return best ? { ...best, at: from + best.at } : null;
}
