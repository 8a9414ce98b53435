// The columns of a stored event that exports and transcripts read (a subset of the Event row, so
// the format modules stay free of the database and are tested with plain objects).
import type { HistoryEventType } from "../generated/prisma/enums.js";
import type { Part } from "../vocabulary/parts.js";

export interface StoredEvent {
  /** Present on events read from the database; exports that need message ids derive them from it. */
  id?: string;
  /** Present on events read from the database; token budgets report what they dropped by it. */
  seq?: number;
  type: HistoryEventType;
  content: string | null;
  parts: unknown;
  callId: string | null;
  toolName: string | null;
  args: unknown;
  isError: boolean | null;
  providerFields: unknown;
}

export const partsOf = (event: StoredEvent) => (Array.isArray(event.parts) ? (event.parts as Part[]) : null);

/**
 * A message event's parts, with its text first when it has both (events written through GraphQL
 * may); null when it is text only.
 */
export function messageParts(event: StoredEvent): Part[] | null {
  const parts = partsOf(event);
  // An empty list (a UIMessage with no parts) reads as empty text: no provider takes an empty list.
  if (!parts?.length) return null;
  return event.content != null ? [{ type: "text", text: event.content }, ...parts] : parts;
}
