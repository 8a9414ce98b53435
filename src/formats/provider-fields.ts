// What an imported OpenAI message or item carried beyond an event's own columns. Stored with the
// event (Event.providerFields) so that exporting in the same format gives back the same JSON:
// item ids and status, a participant's name, encrypted reasoning, the raw arguments string.

export type MessageFormat = "OPENAI_CHAT" | "OPENAI_RESPONSES";

export interface ProviderFields {
  /** The format the event was imported from; `extra` is given back only when exporting to it. */
  format: MessageFormat;
  /** Keys of the source message or item that have no column (name, refusal, id, status, …). */
  extra?: Record<string, unknown>;
  /** Chat only: keys of a tool call object besides id, type and function. */
  callExtra?: Record<string, unknown>;
  /** Chat only: this event belongs to the same assistant message as the event before it. */
  continues?: true;
  /** A system event that came from a `developer` message. */
  role?: "developer";
  /** Tool call arguments exactly as written: replayed verbatim (prompt caches match on bytes). */
  arguments?: string;
}

/** The stored JSON column, read back. */
export const readProviderFields = (value: unknown): ProviderFields | null =>
  value && typeof value === "object" ? (value as ProviderFields) : null;

/** The keys of `source` outside `known`, or undefined when there are none. */
export function extraKeys(source: Record<string, unknown>, known: readonly string[]) {
  const extra = Object.fromEntries(Object.entries(source).filter(([key]) => !known.includes(key)));
  return Object.keys(extra).length ? extra : undefined;
}

/** The extra keys to give back when exporting to `format`: none for events from the other one. */
export const extraFor = (fields: ProviderFields | null, format: MessageFormat) =>
  fields?.format === format ? (fields.extra ?? {}) : {};
