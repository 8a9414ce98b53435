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
  chatHashSeed,
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
  const hashes = new PrefixHashes(messages.length);
  for (let at = 0; at < messages.length; at++) hashes.set(at, chain.extend(messages[at]!.text));
  // Only where each message ends is kept across the probes' awaits, not the messages' texts: what
  // a request of thousands of messages leaves alive while it waits is copied by each young GC.
  const ends = messages.map((message) => message.end);
  const best = await longestPrefix(store, tenantId, hashes, dialogId);
  return best ? { previousResponseId: best.id, dialogId: best.dialogId, inputFrom: ends[best.at]! } : NO_MATCH;
}

/**
 * matchChatContext for Chat Completions messages that are all plain (their prefix hashes made
 * before, plainPrefixHashes): `inputFrom` is a message index, which is the event index (a plain
 * message is one event).
 */
export async function matchPlainPrefixes(
  store: Store,
  tenantId: string,
  hashes: PrefixHashes,
  dialogId: string | null,
): Promise<ChatMatch> {
  const best = await longestPrefix(store, tenantId, hashes, dialogId);
  return best ? { previousResponseId: best.id, dialogId: best.dialogId, inputFrom: best.at + 1 } : NO_MATCH;
}

/**
 * The prefix hashes of plain Chat Completions messages (`forms`: plainChatForms of them), every
 * prefix but the whole (its last message is the new turn's), hashed straight from the messages as
 * sent: no events, no normal-form objects, one JSON.stringify of each text.
 */
export function plainPrefixHashes(
  messages: readonly unknown[],
  forms: readonly PlainForm[],
  chain: ChatHashChain,
): PrefixHashes {
  const hashes = new PrefixHashes(Math.max(0, messages.length - 1));
  for (let at = 0; at < hashes.count; at++) {
    const [open, close] = forms[at]!;
    hashes.set(at, chain.extend(JSON.stringify((messages[at] as { content: string }).content), open, close));
  }
  return hashes;
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

/**
 * A request's prefix hashes (ChatHashChain digests), 32 bytes each in one buffer: what is kept
 * across the probes' awaits is one object, not a string a message.
 */
export class PrefixHashes {
  readonly #packed: Buffer;

  constructor(readonly count: number) {
    this.#packed = Buffer.alloc(32 * count);
  }

  set(at: number, digest: string) {
    this.#packed.write(digest, 32 * at, "latin1");
  }

  /** The hashes of prefixes `from` to `to` (exclusive) in hex, as Response.chatHash keeps them. */
  hex(from: number, to: number): string[] {
    return Array.from({ length: to - from }, (_, i) =>
      this.#packed.toString("hex", 32 * (from + i), 32 * (from + i + 1)),
    );
  }
}

/** The first prefix the first probe looks at: a match there leaves the messages after it as input. */
export const firstProbed = (hashes: PrefixHashes) => Math.max(0, hashes.count - FIRST_PROBES);

const NO_MATCH: ChatMatch = Object.freeze({ previousResponseId: null, dialogId: null, inputFrom: 0 });

/**
 * The longest of the prefixes `hashes` has that is stored for the tenant (`at`: its index): a few
 * longest first, the rest only when none of them matched.
 */
async function longestPrefix(
  store: Store,
  tenantId: string,
  hashes: PrefixHashes,
  dialogId: string | null,
): Promise<{ id: string; dialogId: string; at: number } | null> {
  if (!hashes.count) return null;
  const cutoff = expiryCutoff(new Date(), store.retentionMs);
  const probe = (from: number, to: number) =>
    longestStored(store, hashes.hex(from, to), from, tenantId, dialogId, cutoff);
  const split = firstProbed(hashes);
  return (await probe(split, hashes.count)) ?? (split > 0 ? await probe(0, split) : null);
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
    [hashes, tenantId, dialogId, cutoff],
  );
  return best ? { ...best, at: from + best.at } : null;
}
