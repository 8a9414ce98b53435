// Context that fits a token budget: the newest turns that fit, every system and developer prompt
// kept, a tool call never separated from its result. Tokens are counted with gpt-tokenizer in an
// OpenAI encoding; for other models' tokenizers the count is an approximation (see docs/formats.md).
//
// An event costs the tokens of its text (content and text parts; a tool call's name and JSON
// arguments; a tool result's content) plus EVENT_OVERHEAD for the message framing around it; an
// image, file or audio part costs ATTACHMENT_TOKENS whatever its size, since its bytes are not
// text the model reads.
import { joinedText } from "../vocabulary/parts.js";
import { partsOf, type StoredEvent } from "./stored-event.js";

export type TokenizerName = "O200K_BASE" | "CL100K_BASE";
export const tokenizerNames = ["O200K_BASE", "CL100K_BASE"] as const satisfies TokenizerName[];

const EVENT_OVERHEAD = 4;
const ATTACHMENT_TOKENS = 85;

export type CountTokens = (text: string) => number;

// A conversation may well contain "<|endoftext|>" (say, one about tokenizers): it is text to count,
// not a special token, and gpt-tokenizer would otherwise refuse it.
const asText = { disallowedSpecial: new Set<string>() };

// The encodings are several megabytes each: loaded on first use, once.
const loaded = new Map<TokenizerName, Promise<CountTokens>>();
export function loadTokenizer(name: TokenizerName): Promise<CountTokens> {
  let tokenizer = loaded.get(name);
  if (!tokenizer) {
    const encoding =
      name === "O200K_BASE"
        ? import("gpt-tokenizer/encoding/o200k_base")
        : import("gpt-tokenizer/encoding/cl100k_base");
    tokenizer = encoding.then((m) => (text: string) => m.countTokens(text, asText));
    loaded.set(name, tokenizer);
  }
  return tokenizer;
}

export function eventTokens(event: StoredEvent, count: CountTokens): number {
  const text =
    event.type === "TOOL_CALL"
      ? `${event.toolName ?? ""} ${JSON.stringify(event.args ?? {})}`
      : [event.content ?? "", joinedText(partsOf(event) ?? [])].join("");
  const attachments = (partsOf(event) ?? []).filter((part) => !isTextLike(part)).length;
  return EVENT_OVERHEAD + (text ? count(text) : 0) + attachments * ATTACHMENT_TOKENS;
}

const isTextLike = (part: { type: string }) =>
  ["text", "input_text", "output_text", "summary_text", "refusal", "reasoning"].includes(part.type);

export function countEvents(events: readonly StoredEvent[], count: CountTokens, { reasoning = true } = {}) {
  let total = 0;
  for (const event of events) if (reasoning || event.type !== "REASONING") total += eventTokens(event, count);
  return total;
}

/** What an event costs against a budget: nothing for reasoning the export leaves out. */
export const budgetCost =
  (count: CountTokens, { reasoning = true } = {}) =>
  (event: StoredEvent) =>
    reasoning || event.type !== "REASONING" ? eventTokens(event, count) : 0;

export interface FittedContext {
  events: StoredEvent[];
  /** The kept events' tokens, as counted here. */
  tokenCount: number;
  droppedEventCount: number;
  /** Every event up to this seq was dropped, except the system and developer prompts. */
  droppedThroughSeq: number | null;
}

/**
 * The newest part of `events` that fits `maxTokens`, with every system prompt. It starts at a
 * message from the person (a turn) when one fits, otherwise at any step that does not separate a
 * tool result from its call. `reasoning: false` when the export leaves reasoning out, so it costs nothing.
 */
export function fitToBudget(
  events: readonly StoredEvent[],
  maxTokens: number,
  count: CountTokens,
  { reasoning = true, cost = budgetCost(count, { reasoning }) } = {},
): FittedContext {
  let systemTokens = 0;
  for (const event of events) if (event.type === "SYSTEM") systemTokens += cost(event);

  const budget = maxTokens - systemTokens;
  const unanswered = new Set<string>(); // results kept whose calls are not (yet) kept
  let used = 0;
  let turnCut = { at: events.length, used: 0 };
  let stepCut = { at: events.length, used: 0 };
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === "SYSTEM") continue;
    const tokens = cost(event);
    if (used + tokens > budget) break;
    used += tokens;
    if (event.type === "TOOL_RESULT" && event.callId) unanswered.add(event.callId);
    if (event.type === "TOOL_CALL" && event.callId) unanswered.delete(event.callId);
    if (unanswered.size) continue;
    if (event.type === "HUMAN") turnCut = { at: i, used };
    if (event.type !== "TOOL_RESULT") stepCut = { at: i, used };
  }
  const cut = turnCut.at < events.length ? turnCut : stepCut;

  const kept: StoredEvent[] = [];
  let lastDropped: StoredEvent | null = null;
  let droppedEventCount = 0;
  events.forEach((event, i) => {
    if (i >= cut.at || event.type === "SYSTEM") return void kept.push(event);
    droppedEventCount++;
    lastDropped = event;
  });
  return {
    events: kept,
    tokenCount: systemTokens + cut.used,
    droppedEventCount,
    droppedThroughSeq: (lastDropped as StoredEvent | null)?.seq ?? null,
  };
}
