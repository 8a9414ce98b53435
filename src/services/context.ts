// Reconstructing the context of a response (seed 002: previous input + previous output + new
// input, all the way to the root) in one SQL statement, whatever the depth of the chain: a
// recursive CTE walks the ancestors by primary key and the events are joined on
// (responseId, seq). Ordering by (depth, seq) puts the root first and, within a response,
// keeps the order in which the client wrote the events.
//
// Each step of the walk is a LATERAL lookup with LIMIT 1 so that it is always one primary-key
// probe: written as a plain join, PostgreSQL may plan the step as a hash join over a sequential
// scan of "Response" (it does whenever the table's statistics are stale or it is small), which
// makes the walk quadratic — 180 ms instead of 3 ms for a chain of 1,000 responses.
import { Prisma } from "../generated/prisma/client.js";
import type { Event, HistoryEventType } from "../generated/prisma/client.js";
import { run, type SqlRunner } from "../store/sql.js";
import { countColumns } from "./event-counts.js";

/** A write's session, when the read must see the history as of that write's lock. */
type Db = SqlRunner;

/** An event with its place in a context: (depth of its response, seq). */
export type ContextEvent = Event & { depth: number };

export interface ContextPosition {
  depth: number;
  seq: number;
}

// Each response's per-type event counts (src/services/event-counts.ts) are read during the walk.
const chainColumns = Prisma.raw(
  ["id", "previousResponseId", "depth", ...Object.values(countColumns)].map((name) => `"${name}"`).join(", "),
);

const chainOf = (responseId: string) => Prisma.sql`
  WITH RECURSIVE chain AS (
    SELECT ${chainColumns} FROM "Response" WHERE id = ${responseId}
    UNION ALL
    SELECT r.* FROM chain c CROSS JOIN LATERAL (
      SELECT ${chainColumns} FROM "Response" WHERE id = c."previousResponseId" LIMIT 1
    ) r
  )`;

// Events are always reached per response of the chain (LATERAL, through the (responseId, seq)
// index), so a read costs what its context holds, never a scan of every dialog's events, whatever
// plan the statistics of the moment would suggest for a join.
const typeFilter = (types?: readonly HistoryEventType[] | null) =>
  types?.length ? Prisma.sql`AND e."type"::text = ANY(${[...types]}::text[])` : Prisma.empty;

export interface ContextPageQuery {
  types?: readonly HistoryEventType[] | null;
  after?: ContextPosition | null;
  before?: ContextPosition | null;
  /** null: no limit. */
  limit: number | null;
  /** Read from the end backwards (for `last`); rows come back newest first. */
  inverted: boolean;
}

// A page walks the chain's responses in order and reads each one's events through the
// (responseId, seq) index, so PostgreSQL stops as soon as the page is full (an incremental sort
// on the presorted depth): the first 100 of 10,000 events cost 1 ms instead of the 10 ms of
// joining and sorting them all. Cursor bounds are split so each side can use them: the depth
// prunes whole responses, the seq only matters inside the response of the cursor.
export function readContextPage(responseId: string, query: ContextPageQuery, db: Db) {
  return run<ContextEvent>(contextPageStatement(responseId, query), db);
}

/** The statement readContextPage runs (the benchmark runs it raw as the baseline). */
export function contextPageStatement(responseId: string, query: ContextPageQuery) {
  const { after, before, limit, inverted } = query;
  const direction = inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const responses = Prisma.sql`SELECT id, depth FROM chain WHERE TRUE
    ${after ? Prisma.sql`AND depth >= ${after.depth}` : Prisma.empty}
    ${before ? Prisma.sql`AND depth <= ${before.depth}` : Prisma.empty}
    ORDER BY depth ${direction}`;
  return Prisma.sql`
    ${chainOf(responseId)}
    SELECT e.*, c.depth FROM (${responses}) c CROSS JOIN LATERAL (
      SELECT * FROM "Event" e WHERE e."responseId" = c.id ${typeFilter(query.types)}
        ${after ? Prisma.sql`AND (c.depth > ${after.depth} OR e.seq > ${after.seq})` : Prisma.empty}
        ${before ? Prisma.sql`AND (c.depth < ${before.depth} OR e.seq < ${before.seq})` : Prisma.empty}
      ORDER BY e.seq ${direction}) e
    ORDER BY c.depth ${direction}, e.seq ${direction}
    LIMIT ${limit ?? Prisma.raw("ALL")}`;
}

/** The whole context, in order. */
export function readContext(responseId: string, types: readonly HistoryEventType[] | null | undefined, db: Db) {
  return run<ContextEvent>(contextPageStatement(responseId, { types, limit: null, inverted: false }), db);
}

export type ContextTotals = { all: number } & Record<HistoryEventType, number>;

/** The context's events counted by type, over the selection `types` (all when absent): a sum of its responses' counts. */
export async function countContext(responseId: string, types: readonly HistoryEventType[] | null | undefined, db: Db) {
  const sums = Prisma.raw(
    Object.entries(countColumns)
      .map(([type, column]) => `COALESCE(sum("${column}"), 0)::int AS "${type}"`)
      .join(", "),
  );
  const [counted] = await run<Record<HistoryEventType, number>>(
    Prisma.sql`${chainOf(responseId)} SELECT ${sums} FROM chain`,
    db,
  );
  const totals: ContextTotals = { all: 0, HUMAN: 0, AI: 0, REASONING: 0, TOOL_CALL: 0, TOOL_RESULT: 0, SYSTEM: 0 };
  for (const type of Object.keys(countColumns) as HistoryEventType[]) {
    if (types?.length && !types.includes(type)) continue;
    totals[type] = counted![type];
    totals.all += counted![type];
  }
  return totals;
}

/** The tool calls among `callIds` made somewhere in the context of `responseId`: callId → tool name. */
export async function findToolCallsInContext(responseId: string, callIds: string[], db: Db) {
  if (!callIds.length) return new Map<string, string>();
  const rows = await run<{ callId: string; toolName: string }>(
    Prisma.sql`
    ${chainOf(responseId)}
    SELECT e."callId", e."toolName" FROM chain c CROSS JOIN LATERAL (SELECT * FROM "Event" WHERE "responseId" = c.id OFFSET 0) e
    WHERE e."type" = 'TOOL_CALL' AND e."callId" = ANY(${callIds}::text[])`,
    db,
  );
  return new Map(rows.map((row) => [row.callId, row.toolName]));
}

/** The responses on the chain of `responseId`, root first. */
export function readChain(responseId: string, db: Db) {
  return run<{ id: string; depth: number }>(
    Prisma.sql`
    ${chainOf(responseId)}
    SELECT id, depth FROM chain ORDER BY depth`,
    db,
  );
}

/** The ids of the context's events, in order. */
export async function readContextEventIds(responseId: string, db: Db) {
  const rows = await run<{ id: string }>(
    Prisma.sql`
    ${chainOf(responseId)}
    SELECT e.id FROM chain c CROSS JOIN LATERAL (SELECT * FROM "Event" WHERE "responseId" = c.id OFFSET 0) e
    ORDER BY c.depth, e.seq`,
    db,
  );
  return rows.map((row) => row.id);
}
