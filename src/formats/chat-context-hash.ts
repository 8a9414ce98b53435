// A context in the Chat Completions normal form, hashed message by message, so that a Chat
// Completions (or Anthropic Messages) request can be matched to the stored response whose context
// its messages begin with, by one indexed lookup instead of a walk (src/services/chat-match.ts).
//
// The normal form keeps what a chat client sends back of each message and nothing else: the role
// (developer counts as system), the text, or the parts when there is more than text, an
// assistant's tool calls with their arguments as canonical JSON (key order and spacing do not
// matter), a tool result's call id and whether it was an error. Reasoning, names, metadata,
// timestamps and provider fields are left out, because clients drop or reshape them. Messages are
// grouped from events by one rule on both sides: an assistant message is its text followed by the
// tool calls after it (as a model's step stores them).
//
// The hash of a context is a chain: the tenant's seed, then one SHA-256 step per message,
// h = sha256(h ‖ utf8(normal form)). Each stored response keeps the hash of its whole context
// (its parent's hash extended by its own messages: the SQL function "chatContextHash" of the
// migration 20261125200600_chat_context_hash computes the same), and a request's prefix hashes
// are computed in one pass over its messages: one SHA-256 call per message over a scratch buffer
// the running hash and the message are written into (no hash object, no copy of the text, no hex
// string per message: hex is made only for the prefixes a request probes).
import { createHash, hash } from "node:crypto";
import type { HistoryEventType } from "../generated/prisma/enums.js";

/** The columns of an event the normal form reads (stored events and events about to be stored alike). */
export interface ChatHashedEvent {
  type: HistoryEventType;
  content: string | null;
  parts: unknown;
  callId: string | null;
  toolName: string | null;
  args: unknown;
  isError: boolean | null;
}

/** One message of the normal form, with the index after its last event. */
export interface NormalMessage {
  text: string;
  end: number;
}

/** The messages `events` make, in the normal form, each with where it ends in `events`. */
export function normalMessages(events: readonly ChatHashedEvent[]): NormalMessage[] {
  // Each text is JSON.stringify of a list, spelled out piece by piece (the same text, one list and
  // one array walk fewer a message: a Chat Completions request brings thousands).
  const messages: NormalMessage[] = [];
  let assistant: { text: string; calls: unknown[][] } | null = null;
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (assistant && event.type !== "TOOL_CALL") {
      messages[messages.length - 1]!.text = assistantText(assistant.text, assistant.calls);
      assistant = null;
    }
    switch (event.type) {
      case "SYSTEM":
      case "HUMAN": {
        const role = event.type === "SYSTEM" ? '["system",' : '["user",';
        messages.push({ text: role + JSON.stringify(contentOf(event)) + "]", end: index + 1 });
        break;
      }
      case "TOOL_RESULT": {
        const [callId, content] = [JSON.stringify(event.callId ?? ""), JSON.stringify(contentOf(event))];
        messages.push({ text: `["tool",${callId},${content},${event.isError === true}]`, end: index + 1 });
        break;
      }
      case "REASONING":
        // Not part of the normal form, but an assistant message ends where reasoning starts (above).
        break;
      case "AI":
        assistant = { text: textOf(contentOf(event)), calls: [] };
        messages.push({ text: "", end: index + 1 });
        break;
      case "TOOL_CALL":
        if (!assistant) {
          assistant = { text: "", calls: [] };
          messages.push({ text: "", end: index + 1 });
        }
        assistant.calls.push([event.callId ?? "", event.toolName ?? "", canonicalJson(event.args ?? {})]);
        messages[messages.length - 1]!.end = index + 1;
        break;
    }
  }
  if (assistant) messages[messages.length - 1]!.text = assistantText(assistant.text, assistant.calls);
  return messages;
}

/** JSON.stringify(["assistant", text, calls]). */
const assistantText = (text: string, calls: unknown[][]) =>
  `["assistant",${JSON.stringify(text)},${calls.length ? JSON.stringify(calls) : "[]"}]`;

/** The text of the normal form's messages (what the hash chain is made of). */
export const normalMessageTexts = (events: readonly ChatHashedEvent[]) => normalMessages(events).map((m) => m.text);

/** The hash of an empty context of `tenantId`: every chain of the tenant starts from it. */
export const chatHashSeed = (tenantId: string) =>
  createHash("sha256").update(`dialogql chat context ${tenantId}`, "utf8").digest();

/** `start` (a hash) extended by `messages` of the normal form, one ChatHashChain step each. */
export function extendChatHash(start: Buffer, messages: readonly string[]): Buffer {
  const chain = new ChatHashChain(start);
  let digest: string | null = null;
  for (const message of messages) digest = chain.extend(message);
  return digest === null ? start : Buffer.from(digest, "latin1");
}

/**
 * A hash chain extended message by message: h = sha256(h ‖ utf8(message)), computed over one scratch
 * buffer that holds the running hash followed by the message. Digests come as binary strings (one
 * character a byte): a string costs less to make than a Buffer, and thousands are made a request.
 */
export class ChatHashChain {
  #scratch = Buffer.allocUnsafe(4096);
  /** Messages hashed so far (tests count them to see that a request is hashed once, not per prefix). */
  steps = 0;

  constructor(start: Buffer) {
    start.copy(this.#scratch, 0, 0, 32);
  }

  /**
   * Extends the chain by the message `open + body + close` and returns the new hash (binary: see
   * chatHashHex). The three pieces are written one after the other, so that a message spelled out
   * from its parts (plainChatForm) is never joined into one string first.
   */
  extend(body: string, open = "", close = ""): string {
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    const most = 32 + 3 * (open.length + body.length + close.length);
    if (most > this.#scratch.length) {
      const larger = Buffer.allocUnsafe(2 * most);
      this.#scratch.copy(larger, 0, 0, 32);
      this.#scratch = larger;
    }
    let length = 32 + this.#scratch.write(open, 32, "utf8");
    length += this.#scratch.write(body, length, "utf8");
    length += this.#scratch.write(close, length, "utf8");
    const digest = hash("sha256", this.#scratch.subarray(0, length), "binary");
    this.#scratch.write(digest, 0, "latin1");
    this.steps++;
    return digest;
  }
}

/** A digest of ChatHashChain in hex, as Response.chatHash keeps it. */
export const chatHashHex = (digest: string) => Buffer.from(digest, "latin1").toString("hex");

/** The opening and closing of a plain message's normal form, around JSON.stringify of its text. */
export type PlainForm = readonly [open: string, close: string];

const PLAIN_SYSTEM: PlainForm = ['["system",', "]"];
const PLAIN_USER: PlainForm = ['["user",', "]"];
const PLAIN_ASSISTANT: PlainForm = ['["assistant",', ",[]]"];

/**
 * The normal form of a plain Chat Completions message as the client sent it, without reading it
 * into events: a system, developer or user message whose content is a string, or an assistant's
 * string content without tool calls or reasoning. Such a message is exactly one event, whose
 * normal form (normalMessages) is `open + JSON.stringify(content) + close` (test/chat-match.test.ts
 * checks both ways agree). Null for any other message.
 */
export function plainChatForm(message: unknown): PlainForm | null {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return null;
  const { role, content } = message as Record<string, unknown>;
  if (typeof content !== "string") return null;
  switch (role) {
    case "system":
    case "developer":
      return PLAIN_SYSTEM;
    case "user":
      return PLAIN_USER;
    case "assistant": {
      const { tool_calls: calls, reasoning_content: reasoning } = message as Record<string, unknown>;
      return calls == null && reasoning == null ? PLAIN_ASSISTANT : null;
    }
    default:
      return null;
  }
}

/** A message's content: its text, or its parts when it has more than text (canonical JSON). */
function contentOf(event: ChatHashedEvent): string | unknown[] {
  const parts = Array.isArray(event.parts) && event.parts.length ? (event.parts as unknown[]) : null;
  if (!parts) return event.content ?? "";
  const all = event.content != null ? [{ type: "text", text: event.content }, ...parts] : parts;
  const isText = (part: unknown) => (part as { type?: unknown })?.type === "text";
  if (all.every(isText)) return all.map((part) => String((part as { text?: unknown }).text ?? "")).join("");
  return all.map((part) => (isText(part) ? String((part as { text?: unknown }).text ?? "") : canonicalJson(part)));
}

const textOf = (content: string | unknown[]) => (typeof content === "string" ? content : content.join(""));

/** JSON with object keys sorted, so equal values have one spelling. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
