// Reading deltas back from the database. A published payload names a range of one response's
// events; every subscriber of this process that receives it shares one read of that range
// (thousands of subscribers to one dialog cost one query per delta, not one each). Replays and
// gap repairs read whole ranges of the dialog in batches and cut them into per-response deltas.
import { rowFromJson } from "../db/json-rows.js";
import { NotFoundError } from "../errors.js";
import { Prisma } from "../generated/prisma/client.js";
import type { Event, PrismaClient, Response } from "../generated/prisma/client.js";
import { run, type SqlRunner } from "../store/sql.js";
import type { Store } from "../store/store.js";
import type { ClearedPayload, DeltaPayload, ResponseDeletedPayload } from "./live-bus.js";

/** A delta with what it shows: its events (in seq order) and its response. */
export interface WriteDeltaView extends DeltaPayload {
  cleared: false;
  events: Event[];
  response: Response;
}

/** clearDialog's delta: no response, no events; everything up to `seq` is gone. */
export interface ClearedDeltaView extends ClearedPayload {
  responseId: null;
  response: null;
  status: null;
  events: [];
}

/** A deleted response's delta: no response row, no events, no seq moved. */
export interface ResponseDeletedView extends ResponseDeletedPayload {
  cleared: false;
  response: null;
  status: null;
  events: [];
}

export type HistoryDeltaView = WriteDeltaView | ClearedDeltaView | ResponseDeletedView;

export const responseDeletedDelta = (payload: ResponseDeletedPayload): ResponseDeletedView => ({
  ...payload,
  cleared: false,
  response: null,
  status: null,
  events: [],
});

export const clearedDelta = (dialogId: string, seq: number): ClearedDeltaView => ({
  dialogId,
  cleared: true,
  previousSeq: seq,
  seq,
  responseId: null,
  response: null,
  status: null,
  events: [],
});

// Subscribers receive a payload within moments of each other; a read is kept a little longer
// than that, then dropped, so the cache stays small whatever the traffic.
const SHARE_READ_MS = 10_000;
const MAX_SHARED_READS = 5_000;
type SharedReads = Map<string, { readAt: number; view: Promise<WriteDeltaView> }>;

/** What this module keeps of one database's rows: the shared reads and the streaming responses' rows (below). */
interface DeltaCaches {
  sharedReads: SharedReads;
  streamingRows: StreamingRows;
}

// Kept per Prisma client, in a WeakMap, because that is the lifetime of what they cache: rows of
// one database, valid for every app and subscriber on that store (so two stores in one process
// never answer from each other's reads), and gone with the store once it is closed and dropped.
// The store (src/store/, a layer below this one) knows nothing of deltas, so it cannot own them;
// and every reader (the schema's resolve, the Redis carriage) reaches them through the store it
// already has, with nothing more to pass around.
const cachesOf = new WeakMap<PrismaClient, DeltaCaches>();

function cachesFor(prisma: PrismaClient): DeltaCaches {
  let caches = cachesOf.get(prisma);
  if (!caches) cachesOf.set(prisma, (caches = { sharedReads: new Map(), streamingRows: new Map() }));
  return caches;
}

function sharedReadsFor(prisma: PrismaClient, now: number): SharedReads {
  const { sharedReads } = cachesFor(prisma);
  forgetOldReads(sharedReads, now);
  return sharedReads;
}

const readKey = ({ dialogId, responseId, previousSeq, seq, status }: DeltaPayload) =>
  `${dialogId}/${responseId}/${previousSeq}/${seq}/${status}`;

export function readDelta({ prisma, database }: Store, payload: DeltaPayload): Promise<WriteDeltaView> {
  const { dialogId, responseId, previousSeq, seq } = payload;
  const key = readKey(payload);
  const now = Date.now();
  const sharedReads = sharedReadsFor(prisma, now);
  const shared = sharedReads.get(key);
  if (shared) return shared.view;
  // One statement, sent directly (Prisma's include is two, each costing more CPU than its work):
  // the response's row and its events of the range, as JSON turned into Prisma's rows.
  const view = run<{ response: unknown; events: unknown[] }>(
    Prisma.sql`SELECT to_jsonb(r) AS response,
        (SELECT COALESCE(jsonb_agg(to_jsonb(e) ORDER BY e.seq), '[]'::jsonb) FROM "Event" e
          WHERE e."dialogId" = r."dialogId" AND e.seq > ${previousSeq}::int AND e.seq <= ${seq}::int
            AND e."responseId" = r.id) AS events
      FROM "Response" r WHERE r."dialogId" = ${dialogId} AND r.id = ${responseId}`,
    database,
  ).then(([row]) => {
    if (!row) throw NotFoundError.response(responseId);
    const response = rowFromJson("Response", row.response) as Response;
    const events = row.events.map((event) => rowFromJson("Event", event) as Event);
    noteResponse(prisma, seq, response);
    return { ...payload, cleared: false as const, events, response };
  });
  // A failed read is not shared: the next subscriber tries again.
  view.catch(() => sharedReads.delete(key));
  sharedReads.set(key, { readAt: now, view });
  return view;
}

/**
 * What another instance read of a delta, as it sent it with the payload
 * (src/live/delta-carriage.ts): this instance's subscribers answer from it instead of reading.
 */
export function rememberDelta(
  { prisma }: Store,
  payload: DeltaPayload,
  read: Pick<WriteDeltaView, "events" | "response">,
) {
  const now = Date.now();
  const view = { ...payload, cleared: false as const, events: read.events, response: read.response };
  sharedReadsFor(prisma, now).set(readKey(payload), { readAt: now, view: Promise.resolve(view) });
  noteResponse(prisma, payload.seq, read.response);
}

// A text delta carries no row, and a response streams dozens of deltas a second: its row is kept
// here while it streams (IN_PROGRESS), from the committed deltas of it that this instance read or
// received (readDelta, rememberDelta: the write that opened it is one), and read only when none
// was (once, shared by every text delta and subscriber of this instance). What a text delta shows
// of its response is therefore its row as of the latest committed write this instance saw; a row
// older than STREAMING_ROW_MS (its writes went unseen, Redis was away) is read again.
const STREAMING_ROW_MS = 30_000;
const MAX_STREAMING_ROWS = 10_000;
type StreamingRows = Map<string, { seq: number; readAt: number; row: Promise<Response> }>;

const streamingRowsFor = (prisma: PrismaClient): StreamingRows => cachesFor(prisma).streamingRows;

function keepRow(rows: StreamingRows, id: string, entry: { seq: number; readAt: number; row: Promise<Response> }) {
  // Re-inserted, so the Map's order stays oldest first, and the oldest goes past the bound.
  rows.delete(id);
  rows.set(id, entry);
  if (rows.size > MAX_STREAMING_ROWS) rows.delete(rows.keys().next().value!);
}

/** A committed delta's row (as of `seq`): kept while its response streams, forgotten once it ends. */
function noteResponse(prisma: PrismaClient, seq: number, row: Response) {
  const rows = streamingRowsFor(prisma);
  const known = rows.get(row.id);
  if (known && known.seq > seq) return; // a later write's row is kept already
  if (row.status !== "IN_PROGRESS") rows.delete(row.id);
  else keepRow(rows, row.id, { seq, readAt: Date.now(), row: Promise.resolve(row) });
}

/** The row a text delta of `responseId` shows (see above): kept, or read once for all. */
export function responseOfText({ prisma }: Store, dialogId: string, responseId: string): Promise<Response> {
  const rows = streamingRowsFor(prisma);
  const now = Date.now();
  const known = rows.get(responseId);
  if (known && now - known.readAt < STREAMING_ROW_MS) return known.row;
  const row = prisma.response.findUnique({ where: { id: responseId, dialogId } }).then((found) => {
    if (!found) throw NotFoundError.response(responseId);
    // A finished (or deleted) response streams no more: nothing to keep.
    if (found.status !== "IN_PROGRESS" && rows.get(responseId)?.row === row) rows.delete(responseId);
    return found;
  });
  // A failed read is not kept: the next text delta tries again.
  row.catch(() => rows.get(responseId)?.row === row && rows.delete(responseId));
  // Any committed write's row replaces it (seq -1).
  keepRow(rows, responseId, { seq: -1, readAt: now, row });
  return row;
}

function forgetOldReads(sharedReads: SharedReads, now: number) {
  // Map iteration follows insertion order, so the oldest reads come first.
  for (const [key, { readAt }] of sharedReads) {
    if (now - readAt < SHARE_READ_MS && sharedReads.size <= MAX_SHARED_READS) break;
    sharedReads.delete(key);
  }
}

const REPLAY_BATCH = 1_000;

/** The dialog's position (its last seq, and the seq of its last clear), or undefined when it is gone. */
export async function readDialogPosition(
  { database }: Store,
  dialogId: string,
): Promise<{ lastSeq: number; clearedAtSeq: number | null } | undefined> {
  const [dialog] = await run<{ lastSeq: number; clearedAtSeq: number | null }>(
    Prisma.sql`SELECT "lastSeq", "clearedAtSeq" FROM "Dialog" WHERE id = ${dialogId}`,
    database,
  );
  return dialog;
}

/**
 * Every event of the dialog with after < seq <= upTo, as deltas: one per run of consecutive
 * events of one response, read REPLAY_BATCH events per query; each delta's status is its
 * response's status now. With `statusChangesFrom`, responses that got their final status at a
 * seq from there to upTo but have no event in the range (so no delta above would show it) get a
 * status-only delta, in seq order among the others.
 */
export async function* readDeltasBetween(
  { database }: Store,
  dialogId: string,
  after: number,
  upTo: number,
  statusChangesFrom?: number,
): AsyncGenerator<WriteDeltaView> {
  // Sent straight to the driver, not through Prisma: a subscriber that fell behind reads its gap
  // here, and a hundred of them on a busy dialog made Prisma's cost per statement (about a
  // millisecond of CPU each) the largest part of an instance's work.
  const statusChanges =
    statusChangesFrom == null ? [] : await readStatusChanges(database, dialogId, statusChangesFrom, after, upTo);
  // Bounded: each round moves `after` forward by at least one event or stops.
  while (after < upTo) {
    const rows = await run<{ event: unknown; response: unknown }>(
      Prisma.sql`SELECT to_jsonb(e) AS event, to_jsonb(r) AS response
        FROM "Event" e JOIN "Response" r ON r."dialogId" = e."dialogId" AND r.id = e."responseId"
        WHERE e."dialogId" = ${dialogId} AND e.seq > ${after}::int AND e.seq <= ${upTo}::int
        ORDER BY e.seq LIMIT ${REPLAY_BATCH}::int`,
      database,
    );
    if (!rows.length) break; // deleted meanwhile
    const events = rows.map((row) => ({
      ...(rowFromJson("Event", row.event) as Event),
      response: rowFromJson("Response", row.response) as Response,
    }));
    for (const run of runsByResponse(events)) {
      while (statusChanges[0] && statusChanges[0].seq <= run[0]!.seq - 1) yield statusChanges.shift()!;
      const response = run[0]!.response;
      yield {
        dialogId,
        responseId: response.id,
        previousSeq: run[0]!.seq - 1,
        seq: run.at(-1)!.seq,
        status: response.status,
        cleared: false,
        events: run.map(({ response: _response, ...event }) => event),
        response,
      };
    }
    after = events.at(-1)!.seq;
  }
  yield* statusChanges;
}

async function readStatusChanges(database: SqlRunner, dialogId: string, from: number, after: number, upTo: number) {
  const rows = await run<{ response: unknown }>(
    Prisma.sql`SELECT to_jsonb(r) AS response FROM "Response" r
      WHERE r."dialogId" = ${dialogId} AND r."finishedAtSeq" >= ${from}::int AND r."finishedAtSeq" <= ${upTo}::int
        AND NOT EXISTS (SELECT 1 FROM "Event" e
          WHERE e."dialogId" = r."dialogId" AND e."responseId" = r.id AND e.seq > ${after}::int AND e.seq <= ${upTo}::int)
      ORDER BY r."finishedAtSeq" ASC, r.id ASC`,
    database,
  );
  return rows.map(({ response: json }): WriteDeltaView => {
    const response = rowFromJson("Response", json) as Response;
    return {
      dialogId,
      responseId: response.id,
      previousSeq: response.finishedAtSeq!,
      seq: response.finishedAtSeq!,
      status: response.status,
      cleared: false,
      events: [],
      response,
    };
  });
}

function runsByResponse<T extends { responseId: string }>(events: T[]): T[][] {
  const runs: T[][] = [];
  for (const event of events) {
    const run = runs.at(-1);
    if (run && run[0]!.responseId === event.responseId) run.push(event);
    else runs.push([event]);
  }
  return runs;
}
