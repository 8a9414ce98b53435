// Full-text search over a tenant's events (PostgreSQL text search, the same on PGlite and on a
// server). What is searched is each event's text, tool name and JSON arguments, as one document
// whose expression is indexed with GIN (migration 20261122235500_event_search): an expression
// index rather than a column, so no write path has anything to maintain.
//
// Hits are ranked (ts_rank), newest first among equals, and paged by offset: a rank is not a
// stable key for a cursor across writes, and nobody pages a thousand results deep.
import { Prisma } from "../generated/prisma/client.js";
import type { Event, HistoryEventType, ResponseStatus } from "../generated/prisma/client.js";
import type { SqlRunner } from "../store/sql.js";
import { ValidationError } from "../errors.js";

// Must stay textually identical to the indexed expression, or the index is not used.
const searchDocument = Prisma.sql`coalesce(e."content", '') || ' ' || coalesce(e."toolName", '') || ' ' || coalesce(e."args"::text, '')`;
const indexedVector = Prisma.sql`to_tsvector('english'::regconfig, ${searchDocument})`;

// Private-use characters around matches in ts_headline's output: they never occur in stored text
// worth searching, and split cleanly into parts afterwards.
const MARK_START = "\uE000";
const MARK_END = "\uE001";
const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "`;

export const MAX_QUERY_LENGTH = 500;
/** How many of the newest matches are ranked; `totalCount` still counts them all (up to COUNT_CAP). */
export const RANKED_CANDIDATES = 300;

/**
 * The most a tenant-wide count (`search` and `dialogs` totalCount) counts: a count reads every row
 * it counts, and one over a tenant's whole history has no bound as the tenant grows (nor, with the
 * tables spread over machines by dialog, one machine to ask). Past it, totalCount is COUNT_CAP.
 */
export const COUNT_CAP = 10_000;

export interface SearchFilter {
  types?: readonly HistoryEventType[] | null;
  models?: readonly string[] | null;
  statuses?: readonly ResponseStatus[] | null;
  /** Dialog metadata containing this object (jsonb @>). */
  metadata?: Record<string, unknown> | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
  dialogId?: string | null;
}

export type SearchHit = Event & { rank: number; headline: string };

export interface SnippetPart {
  text: string;
  match: boolean;
}

function checkedQuery(query: string) {
  const trimmed = query.trim();
  if (!trimmed) throw ValidationError.at(["query"], "is empty");
  if (trimmed.length > MAX_QUERY_LENGTH)
    throw ValidationError.at(["query"], `is longer than ${MAX_QUERY_LENGTH} characters`);
  return trimmed;
}

function conditions(tenantId: string, filter: SearchFilter | null | undefined) {
  const where = [Prisma.sql`d."tenantId" = ${tenantId}`];
  const f = filter ?? {};
  if (f.types?.length) where.push(Prisma.sql`e."type"::text = ANY(${[...f.types]}::text[])`);
  if (f.models?.length) where.push(Prisma.sql`r."model" = ANY(${[...f.models]}::text[])`);
  if (f.statuses?.length) where.push(Prisma.sql`r."status"::text = ANY(${[...f.statuses]}::text[])`);
  if (f.metadata) where.push(Prisma.sql`d."metadata" @> ${JSON.stringify(f.metadata)}::jsonb`);
  if (f.createdAfter) where.push(Prisma.sql`e."createdAt" >= ${f.createdAfter}`);
  if (f.createdBefore) where.push(Prisma.sql`e."createdAt" < ${f.createdBefore}`);
  if (f.dialogId) where.push(Prisma.sql`e."dialogId" = ${f.dialogId}`);
  return Prisma.join(where, " AND ");
}

const needsResponse = (filter?: SearchFilter | null) => Boolean(filter?.models?.length || filter?.statuses?.length);

function matches(query: string, tenantId: string, filter?: SearchFilter | null) {
  const responseJoin = needsResponse(filter) ? Prisma.sql`JOIN "Response" r ON r.id = e."responseId"` : Prisma.empty;
  return Prisma.sql`
    FROM "Event" e JOIN "Dialog" d ON d.id = e."dialogId" ${responseJoin},
      websearch_to_tsquery('english'::regconfig, ${query}) q
    WHERE ${indexedVector} @@ q AND ${conditions(tenantId, filter)}`;
}

/**
 * One page of hits, best first. Ranking needs each match's document parsed again (the index keeps
 * only which events match), so the ranked set is the newest RANKED_CANDIDATES matches: a word
 * found in 20,000 events still answers in milliseconds, and what is ranked is what was written
 * lately. The snippet is computed for the page only (ts_headline is costly too).
 */
export async function searchEvents(
  db: SqlRunner,
  query: string,
  tenantId: string,
  filter: SearchFilter | null | undefined,
  page: { offset: number; limit: number },
): Promise<SearchHit[]> {
  const text = checkedQuery(query);
  // MATERIALIZED: the matches come from the search index, never from walking the primary key
  // backwards in search of enough of them (the plan PostgreSQL may pick for ORDER BY id LIMIT).
  const statement = Prisma.sql`
    WITH matched AS MATERIALIZED (SELECT e.id ${matches(text, tenantId, filter)}),
    candidates AS (SELECT id FROM matched ORDER BY id DESC LIMIT ${RANKED_CANDIDATES}),
    hits AS (
      SELECT e.*, ts_rank(${indexedVector}, websearch_to_tsquery('english'::regconfig, ${text})) AS rank
      FROM candidates c JOIN "Event" e ON e.id = c.id
      ORDER BY rank DESC, e.id DESC
      LIMIT ${page.limit} OFFSET ${page.offset}
    )
    SELECT e.*, ts_headline('english'::regconfig, ${searchDocument}, websearch_to_tsquery('english'::regconfig, ${text}), ${HEADLINE_OPTIONS}) AS headline
    FROM hits e ORDER BY e.rank DESC, e.id DESC`;
  return db.query<SearchHit>(statement.text, statement.values);
}

/** How many events match in all, up to COUNT_CAP (the count stops reading there). */
export async function countSearchHits(db: SqlRunner, query: string, tenantId: string, filter?: SearchFilter | null) {
  const statement = Prisma.sql`SELECT count(*)::int AS n
    FROM (SELECT 1 ${matches(checkedQuery(query), tenantId, filter)} LIMIT ${COUNT_CAP}::int) capped`;
  const [row] = await db.query<{ n: number }>(statement.text, statement.values);
  return row!.n;
}

/** A headline as text with the matches marked, split into parts. */
export function snippetParts(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const [index, piece] of headline
    .trim()
    .split(new RegExp(`[${MARK_START}${MARK_END}]`))
    .entries()) {
    if (piece) parts.push({ text: piece, match: index % 2 === 1 });
  }
  return parts;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A headline as HTML: the text escaped, the matches in <mark>. */
export function snippetHtml(headline: string) {
  return snippetParts(headline)
    .map((part) => (part.match ? `<mark>${escapeHtml(part.text)}</mark>` : escapeHtml(part.text)))
    .join("");
}
