// The JSON a write sends for its rows, and the column expressions that unpack it. Every statement
// that inserts responses or events (the one-statement turn and the transactional primitive) reads
// its rows from here, so a column is added in one place.
import { Prisma } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { newEventId } from "../ids.js";
import type { NewEvent } from "../vocabulary/events.js";
import { countColumns, type EventCounts, eventCounts, segmentCountColumns } from "../vocabulary/event-counts.js";
import { segmentUsageColumns, type UsageSums, usageKinds } from "./usage.js";

export { eventCounts };

export type Phase = "INPUT" | "OUTPUT";

/** Where an event sits in the context addressing: its response's segment and depth. */
export interface EventPlace {
  responseId?: string;
  seq?: number;
  segmentId?: string;
  depth?: number;
}

/** One event as JSON; `createdAt` travels as a UTC ISO string (cast to `timestamp` it keeps its UTC wall-clock time, as Prisma stores it). */
export function eventJson(event: NewEvent, phase: Phase, place: EventPlace = {}) {
  return { ...event, ...place, id: newEventId(), phase, createdAt: event.createdAt?.toISOString() ?? null };
}

/** The columns of "Event" after id, dialogId, responseId and seq, as expressions over the JSON element `ev`. */
export const eventValueColumns = Prisma.raw(
  `phase, type, content, parts, "modelName", "callId", "toolName", args, "isError", "providerFields", metadata, "createdAt"`,
);
/** `now`: the write's time (UTC ISO), or its stand-in (src/store/shaped-statement.ts). */
export const eventValuesFromJson = (now: unknown) => Prisma.sql`
  (ev->>'phase')::"EventPhase", (ev->>'type')::"HistoryEventType", ev->>'content', NULLIF(ev->'parts', 'null'),
  ev->>'modelName', ev->>'callId', ev->>'toolName', NULLIF(ev->'args', 'null'), (ev->>'isError')::boolean,
  NULLIF(ev->'providerFields', 'null'), COALESCE(ev->'metadata', '{}'), COALESCE((ev->>'createdAt')::timestamp, ${now}::timestamp)`;

export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
  totalTokens: number | null;
  /** Input tokens read from the provider's cache (a part of inputTokens). */
  cachedTokens: number | null;
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
  /** The API key whose spend the turn's usage is (null: written without a key). */
  apiKeyId: string | null;
  input: NewEvent[];
  output: NewEvent[];
  /** When it was made and finished, if not now: an imported turn's own times. */
  times?: { created: Date; completed: Date } | null;
}

export const countColumnList = Prisma.raw(
  Object.values(countColumns)
    .map((column) => `"${column}"`)
    .join(", "),
);

/** A response's own counts (`eventCounts` of its events, or their stand-ins), in `countColumnList` order. */
export const countValues = (counts: Record<keyof EventCounts, unknown>) =>
  Prisma.join(Object.values(countColumns).map((column) => Prisma.sql`${counts[column]}::int`));

export const jsonOrNull = (value: unknown) => (value == null ? null : JSON.stringify(value));

const quoted = (columns: Record<string, string>) =>
  Object.values(columns)
    .map((column) => `"${column}"`)
    .join(", ");

export const segmentCountColumnList = Prisma.raw(quoted(segmentCountColumns));

/**
 * The segment counts of a new response with its own `counts`: those added to the counts of `tail`
 * (an alias of a "segmentTail" row, whose columns are null when the response starts a segment).
 */
export const segmentCountValues = (counts: Record<keyof EventCounts, unknown>, tail: string) =>
  Prisma.join(
    Object.entries(countColumns).map(([type, column]) => {
      const inSegment = segmentCountColumns[type as keyof typeof segmentCountColumns];
      return Prisma.sql`COALESCE(${Prisma.raw(`${tail}."${inSegment}"`)}, 0) + ${counts[column]}::int`;
    }),
  );

/**
 * `SET` items adding the counts of `events` to the response at `depth` of a segment and to the
 * segment counts of it and of every later response of the segment (`row`: the updated row's alias).
 */
export function segmentCountIncrements(events: readonly NewEvent[], row: string, depth: Prisma.Sql) {
  const counts = eventCounts(events);
  return Object.entries(countColumns)
    .filter(([, column]) => counts[column] > 0)
    .flatMap(([type, column]) => {
      const own = Prisma.raw(`"${column}"`);
      const inSegment = Prisma.raw(`"${segmentCountColumns[type as keyof typeof segmentCountColumns]}"`);
      const n = counts[column];
      const of = (name: Prisma.Sql) => Prisma.sql`${Prisma.raw(row)}.${name}`;
      return [
        Prisma.sql`${own} = ${of(own)} + CASE WHEN ${of(Prisma.raw("depth"))} = ${depth} THEN ${n}::int ELSE 0 END`,
        Prisma.sql`${inSegment} = ${of(inSegment)} + ${n}::int`,
      ];
    });
}

/** The usage sums of a segment (src/store/usage.ts), as a column list. */
export const segmentUsageColumnList = Prisma.raw(segmentUsageColumns.map((column) => `"${column}"`).join(", "));

/** The usage sums of a new response with usage `sums`: its own added to those of `tail` (as segmentCountValues). */
export const segmentUsageValues = (sums: Record<keyof UsageSums, unknown>, tail: string) =>
  Prisma.join(
    segmentUsageColumns.map((column, i) => {
      const own = i < usageKinds.length ? sums[usageKinds[i]!] : sums.cost;
      const cast = Prisma.raw(column === "costInSegment" ? "float8" : "int");
      return Prisma.sql`COALESCE(${Prisma.raw(`${tail}."${column}"`)}, 0) + ${own}::${cast}`;
    }),
  );
