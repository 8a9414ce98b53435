// Reading the context of a response (previous input + previous output + new input, all
// the way to the root) at a cost that does not grow with the length of the chain. Responses are
// grouped into linear segments (docs/architecture.md, "Context addressing"); a context is the
// short list of segments its chain passes through, each cut at a depth, and its events are index
// ranges over "Event" (segmentId, depth, seq). Ordering by (depth, seq) puts the root first and,
// within a response, keeps the order in which the client wrote the events; a segment's depths all
// lie below those of the segments that branch from it, so that is also segment order.
//
// The segment list is found by one recursive CTE with two primary-key probes per segment (a
// segment's first response, then the response it branched from), never one per response. Each step
// is a LATERAL lookup with LIMIT 1, so it is always a probe: written as a plain join, PostgreSQL may
// plan a step as a hash join over a sequential scan of "Response" when its statistics are stale.
import { Prisma } from "../generated/prisma/client.js";
import type { Event, HistoryEventType } from "../generated/prisma/client.js";
import type { StoredEvent } from "../formats/stored-event.js";
import { run, type SqlRunner } from "../store/sql.js";
import { segmentCountColumns } from "../vocabulary/event-counts.js";

/** A write's session, when the read must see the history as of that write's lock. */
type Db = SqlRunner;

/** An event with its place in a context: (depth of its response, seq). */
export type ContextEvent = Event;

export interface ContextPosition {
  depth: number;
  seq: number;
}

const quote = (names: string[]) => names.map((name) => `"${name}"`).join(", ");
const counted = Object.values(segmentCountColumns);

/**
 * `segments`: one row per segment of the context of `responseId`: its id, the deepest depth of it
 * the context holds (`upTo`), and its segment sums (`sums`: the event counts by default) at that
 * depth, the context's tip first. With `dialogId` (the tip's dialog, when the caller knows it)
 * every probe names the dialog too: a chain never leaves its dialog (docs/scaling.md).
 */
export const segmentsOf = (responseId: string, sums: readonly string[] = counted, dialogId?: string | null) => {
  const inDialog = dialogId ? Prisma.sql`"dialogId" = ${dialogId} AND ` : Prisma.empty;
  return Prisma.sql`
  WITH RECURSIVE segments AS (
    SELECT "segmentId" AS id, depth AS "upTo", ${Prisma.raw(quote([...sums]))} FROM "Response"
    WHERE ${inDialog}id = ${responseId}
    UNION ALL
    SELECT b."segmentId", b.depth, ${Prisma.raw(sums.map((name) => `b."${name}"`).join(", "))}
    FROM segments s
    CROSS JOIN LATERAL (SELECT "previousResponseId" FROM "Response" WHERE ${inDialog}id = s.id LIMIT 1) f
    CROSS JOIN LATERAL (
      SELECT "segmentId", depth, ${Prisma.raw(quote([...sums]))} FROM "Response"
      WHERE ${inDialog}id = f."previousResponseId" LIMIT 1
    ) b
  )`;
};

export interface ContextPageQuery {
  types?: readonly HistoryEventType[] | null;
  after?: ContextPosition | null;
  before?: ContextPosition | null;
  /** null: no limit. */
  limit: number | null;
  /** Read from the end backwards (for `last`); rows come back newest first. */
  inverted: boolean;
  /** The columns to answer (every column of "Event" when absent). */
  columns?: Prisma.Sql;
  /** The tip's dialog, when known (see segmentsOf). */
  dialogId?: string | null;
}

// A page visits the context's segments in order and reads each one's range of events through the
// (segmentId, depth, seq) index (the function "segmentEvents", which keeps the planner to that
// index whatever its statistics), at most `limit` of them, so a page of 100 reads about 100 rows
// whatever the context holds. A cursor bounds the range as a row comparison, which the index
// serves directly; segments that end before the cursor are skipped without being read.
export function readContextPage(responseId: string, query: ContextPageQuery, db: Db) {
  return run<ContextEvent>(contextPageStatement(responseId, query), db);
}

/** The statement readContextPage runs (the benchmark runs it raw as the baseline). */
export function contextPageStatement(responseId: string, query: ContextPageQuery) {
  const { after, before, limit, inverted } = query;
  const direction = inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const segments = Prisma.sql`SELECT id, "upTo" FROM segments
    ${after ? Prisma.sql`WHERE "upTo" >= ${after.depth}` : Prisma.empty}
    ORDER BY "upTo" ${direction}`;
  const types = query.types?.length ? [...query.types] : null;
  return Prisma.sql`
    ${segmentsOf(responseId, counted, query.dialogId)}
    SELECT ${query.columns ?? Prisma.sql`e.*`} FROM (${segments}) s CROSS JOIN LATERAL "segmentEvents"(s.id, s."upTo",
      ${after?.depth ?? null}::int, ${after?.seq ?? null}::int, ${before?.depth ?? null}::int, ${before?.seq ?? null}::int,
      ${types}::text[], ${limit}::bigint, ${inverted}) e
    ORDER BY s."upTo" ${direction}, e.depth ${direction}, e.seq ${direction}
    LIMIT ${limit ?? Prisma.raw("ALL")}`;
}

// What a model is given of an event (StoredEvent): a generated turn reads its whole context, often
// thousands of events, and the columns it does not use (timestamps above all) cost more to decode
// than PostgreSQL takes to find the rows.
const modelColumns = Prisma.raw(
  ["id", "seq", "type", "content", "parts", "callId", "toolName", "args", "isError", "providerFields"]
    .map((name) => `e."${name}"`)
    .join(", "),
);

/** The whole context, in order, as the model is given it. */
export function readModelContext(responseId: string, db: Db, dialogId?: string | null) {
  return run<StoredEvent>(
    contextPageStatement(responseId, { types: null, limit: null, inverted: false, columns: modelColumns, dialogId }),
    db,
  );
}

/** One response's own events, in order, as the model is given them (the last part of its context). */
export function readResponseModelEvents(dialogId: string, responseId: string, db: Db) {
  return run<StoredEvent>(
    Prisma.sql`SELECT ${modelColumns} FROM "Event" e WHERE e."dialogId" = ${dialogId} AND e."responseId" = ${responseId}
      ORDER BY e.seq`,
    db,
  );
}

/** The whole context, in order. */
export function readContext(
  responseId: string,
  types: readonly HistoryEventType[] | null | undefined,
  db: Db,
  dialogId?: string | null,
) {
  return run<ContextEvent>(contextPageStatement(responseId, { types, limit: null, inverted: false, dialogId }), db);
}

export type ContextTotals = { all: number } & Record<HistoryEventType, number>;

/**
 * The context's events counted by type, over the selection `types` (all when absent): the
 * segment counts at the deepest response the context holds in each of its segments, added up.
 */
export async function countContext(
  responseId: string,
  types: readonly HistoryEventType[] | null | undefined,
  db: Db,
  dialogId?: string | null,
) {
  const sums = Prisma.raw(
    Object.entries(segmentCountColumns)
      .map(([type, column]) => `COALESCE(sum("${column}"), 0)::int AS "${type}"`)
      .join(", "),
  );
  const [counts] = await run<Record<HistoryEventType, number>>(
    Prisma.sql`${segmentsOf(responseId, counted, dialogId)} SELECT ${sums} FROM segments`,
    db,
  );
  const totals: ContextTotals = { all: 0, HUMAN: 0, AI: 0, REASONING: 0, TOOL_CALL: 0, TOOL_RESULT: 0, SYSTEM: 0 };
  for (const type of Object.keys(segmentCountColumns) as HistoryEventType[]) {
    if (types?.length && !types.includes(type)) continue;
    totals[type] = counts![type];
    totals.all += counts![type];
  }
  return totals;
}

/** The tool calls among `callIds` made somewhere in the context of `responseId`: callId → tool name. */
export async function findToolCallsInContext(responseId: string, callIds: string[], db: Db) {
  if (!callIds.length) return new Map<string, string>();
  const rows = await run<{ callId: string; toolName: string }>(
    Prisma.sql`
    ${segmentsOf(responseId)}
    SELECT e."callId", e."toolName" FROM segments s CROSS JOIN LATERAL (
      SELECT "callId", "toolName" FROM "Event" e
      WHERE e."segmentId" = s.id AND e.depth <= s."upTo" AND e."type" = 'TOOL_CALL' AND e."callId" = ANY(${callIds}::text[])
    ) e`,
    db,
  );
  return new Map(rows.map((row) => [row.callId, row.toolName]));
}

/** The responses on the chain of `responseId` (from depth `fromDepth` on, when given), root first. */
export function readChain(responseId: string, db: Db, fromDepth = 0) {
  return run<{ id: string; depth: number }>(
    Prisma.sql`
    ${segmentsOf(responseId)}
    SELECT r.id, r.depth FROM segments s CROSS JOIN LATERAL (
      SELECT id, depth FROM "Response" WHERE "segmentId" = s.id AND depth <= s."upTo" AND depth >= ${fromDepth}::int
    ) r
    ORDER BY r.depth`,
    db,
  );
}

/** The segments of the context of `responseId`, each with the deepest depth of it the context holds. */
export function readSegments(responseId: string, db: Db) {
  return run<{ id: string; upTo: number }>(Prisma.sql`${segmentsOf(responseId)} SELECT id, "upTo" FROM segments`, db);
}

/** The response at `depth` of segment `segmentId`. */
export async function responseAt(segmentId: string, depth: number, db: Db) {
  const [row] = await run<{ id: string; depth: number }>(
    Prisma.sql`SELECT id, depth FROM "Response" WHERE "segmentId" = ${segmentId} AND depth = ${depth}::int`,
    db,
  );
  return row ?? null;
}

/** The ids of the context's events, in order. */
export async function readContextEventIds(responseId: string, db: Db) {
  const rows = await run<{ id: string }>(
    Prisma.sql`
    ${segmentsOf(responseId)}
    SELECT e.id FROM segments s CROSS JOIN LATERAL (
      SELECT id, depth, seq FROM "Event" WHERE "segmentId" = s.id AND depth <= s."upTo"
    ) e
    ORDER BY e.depth, e.seq`,
    db,
  );
  return rows.map((row) => row.id);
}
