// The JSON a write sends for its rows, and the column expressions that unpack it. Every statement
// that inserts responses or events (the one-statement turn and the transactional primitive) reads
// its rows from here, so a column is added in one place.
import { Prisma } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { newEventId } from "../ids.js";
import type { NewEvent } from "../services/event-input.js";
import { countColumns, eventCounts } from "../services/event-counts.js";

export { eventCounts };

export type Phase = "INPUT" | "OUTPUT";

/** One event as JSON; `createdAt` travels as a UTC ISO string (cast to `timestamp` it keeps its UTC wall-clock time, as Prisma stores it). */
export function eventJson(event: NewEvent, phase: Phase, place: { responseId?: string; seq?: number } = {}) {
  return { ...event, ...place, id: newEventId(), phase, createdAt: event.createdAt?.toISOString() ?? null };
}

/** The columns of "Event" after id, dialogId, responseId and seq, as expressions over the JSON element `ev`. */
export const eventValueColumns = Prisma.raw(
  `phase, type, content, parts, "modelName", "callId", "toolName", args, "isError", "providerFields", metadata, "createdAt"`,
);
export const eventValuesFromJson = (now: string) => Prisma.sql`
  (ev->>'phase')::"EventPhase", (ev->>'type')::"HistoryEventType", ev->>'content', NULLIF(ev->'parts', 'null'),
  ev->>'modelName', ev->>'callId', ev->>'toolName', NULLIF(ev->'args', 'null'), (ev->>'isError')::boolean,
  NULLIF(ev->'providerFields', 'null'), COALESCE(ev->'metadata', '{}'), COALESCE((ev->>'createdAt')::timestamp, ${now}::timestamp)`;

export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
  totalTokens: number | null;
}

/** A response to insert, with the events it starts with. */
export interface NewTurn {
  id: string;
  model: string | null;
  status: ResponseStatus;
  usage: Usage;
  error: unknown;
  metadata: Record<string, unknown>;
  idempotencyKey: string | null;
  requestHash: string | null;
  input: NewEvent[];
  output: NewEvent[];
}

export const countColumnList = Prisma.raw(
  Object.values(countColumns)
    .map((column) => `"${column}"`)
    .join(", "),
);

export const countValues = (events: NewEvent[]) => {
  const counts = eventCounts(events);
  return Prisma.join(Object.values(countColumns).map((column) => Prisma.sql`${counts[column]}::int`));
};

/** `SET` items adding the counts of `events` to a response's (empty when there are none). */
export function countIncrements(events: readonly NewEvent[]) {
  const counts = eventCounts(events);
  return Object.values(countColumns)
    .filter((column) => counts[column] > 0)
    .map((column) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${Prisma.raw(`"${column}"`)} + ${counts[column]}::int`);
}

export const jsonOrNull = (value: unknown) => (value == null ? null : JSON.stringify(value));
