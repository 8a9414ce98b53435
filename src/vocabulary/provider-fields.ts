// What an imported message, item or block carried beyond an event's own columns. Stored with the
// event (Event.providerFields) so that exporting in the same format gives back the same JSON:
// item ids and status, a participant's name, encrypted reasoning and thinking signatures, the raw
// arguments string, message ids and metadata, tool part states.

export type MessageFormat = "OPENAI_CHAT" | "OPENAI_RESPONSES" | "ANTHROPIC_MESSAGES" | "AI_SDK_UI";

export interface ProviderFields {
  /** The format the event was imported from; `extra` is given back only when exporting to it. */
  format: MessageFormat;
  /** Keys of the source message or item that have no column (name, refusal, id, status, …). */
  extra?: Record<string, unknown>;
  /** Chat only: keys of a tool call object besides id, type and function. */
  callExtra?: Record<string, unknown>;
  /** Chat only: a `custom` tool call, whose free-text input is the event's `args.input`. */
  custom?: true;
  /** Chat, Anthropic, AI SDK: this event belongs to the same message as the event before it. */
  continues?: true;
  /** A system event that came from a `developer` message. */
  role?: "developer";
  /** Tool call arguments exactly as written: replayed verbatim (prompt caches match on bytes). */
  arguments?: string;
  /** Anthropic and AI SDK: keys of the content block or part that have no column (signature, citations, state, …). */
  block?: Record<string, unknown>;
  /** Anthropic and AI SDK: the block or part kept whole, for kinds dialogql has no column for. */
  opaque?: true;
  /** Anthropic: the message's content was a string, not a list of blocks. */
  asString?: true;
  /** Anthropic: a system prompt given as the request's top-level `system`. */
  topLevel?: true;
  /** AI SDK: parts with no event of their own (step-start, data-*, sources), placed before this event's part. */
  before?: unknown[];
  /** AI SDK: such parts at the end of the message. */
  after?: unknown[];
  /** AI SDK: a tool part with no input yet (still streaming): its arguments are `{}` here, absent there. */
  noInput?: true;
  /** AI SDK: a tool result that lives inside its call's tool part; the call event gives the part back. */
  inCallPart?: true;
}

/** The stored JSON column, read back. */
export const readProviderFields = (value: unknown): ProviderFields | null =>
  value && typeof value === "object" ? (value as ProviderFields) : null;

/** The keys of `source` outside `known`, or undefined when there are none. */
export function extraKeys(source: Record<string, unknown>, known: readonly string[]) {
  // A loop, not entries/filter/fromEntries: a Chat Completions request runs this once a message.
  // Defined, not assigned: a parsed body's own "__proto__" key stays a key of the copy instead of
  // setting its prototype.
  let extra: Record<string, unknown> | undefined;
  for (const key of Object.keys(source))
    if (!known.includes(key))
      Object.defineProperty((extra ??= {}), key, {
        value: source[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  return extra;
}

/** The extra keys to give back when exporting to `format`: none for events from another one. */
export const extraFor = (fields: ProviderFields | null, format: MessageFormat) =>
  fields?.format === format ? (fields.extra ?? {}) : {};
