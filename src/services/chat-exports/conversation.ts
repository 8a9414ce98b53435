// What every chat-export reader produces: conversations ready to store, each with the key that makes
// a second import of it find the first (unique per tenant), and helpers the readers share.
import type { WriteLimits } from "../../store/store.js";
import type { HistoryEventInput } from "../../vocabulary/events.js";
import { parseEventInputs } from "../event-input.js";
import type { ImportedEvent } from "../../formats/turns.js";
import type { TurnNode } from "./message-tree.js";

export interface ImportedConversation {
  /** "<source>:<the source's id>", e.g. "chatgpt:6f1c…": importing it again finds this one. */
  importKey: string;
  title: string | null;
  metadata: Record<string, unknown>;
  /** Parents before children; the last one is the branch the source app had open. */
  turns: TurnNode[];
}

/** Where a record sits in the file, named so a person can find it: `conversation 3 ("Trip plans")`. */
export function recordName(index: number, title: unknown, id?: unknown) {
  const named = typeof title === "string" && title ? ` ("${title.slice(0, 60)}")` : "";
  const idPart = typeof id === "string" && id ? ` ${id}` : "";
  return `conversation ${index + 1}${idPart}${named}`;
}

/** A message's events, validated as any write's are; problems name the message. */
export function eventsOf(limits: WriteLimits, inputs: HistoryEventInput[], path: string[]): ImportedEvent[] {
  return parseEventInputs(limits, inputs, path).map((event, index) => ({ event, path: [...path, String(index)] }));
}

/** Seconds since the epoch (as chat apps write them), milliseconds, or ISO text → a Date. */
export function timeOf(value: unknown): Date | null {
  if (typeof value === "number" && Number.isFinite(value)) {
    // Before 10^11 it is seconds (that is the year 5138 in seconds, 1973 in milliseconds).
    const date = new Date(value < 1e11 ? value * 1000 : value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  if (typeof value === "string" && value) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return null;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
