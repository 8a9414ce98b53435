// The commonest write, storing one turn, in ONE SQL statement: data-modifying CTEs lock the dialog
// row, insert the response and its events with seqs counted from the locked `lastSeq`, and move
// the head. One statement is atomic on its own, so no interactive transaction is needed (through
// Prisma an interactive transaction costs about three times the same SQL sent as one statement),
// and concurrent writers to a dialog still queue on its row lock, so seqs stay gap-free.
// It keeps exactly the invariants of the transactional primitive (src/store/dialog-write.ts):
// src/store/turns.ts picks this form when nothing has to be checked under the lock.
//
// Under READ COMMITTED a statement that waited for the lock sees the newest version of the
// locked row but not rows other writers inserted meanwhile; that is why the head's depth is
// read from the dialog row (`headDepth`) rather than from the head response, and why the place
// of the new response in its segment (docs/architecture.md, "Context addressing") comes from the
// function "segmentTail", which reads with a snapshot taken after the lock.
import type { Dialog, Event, Response } from "../generated/prisma/client.js";
import { Prisma } from "../generated/prisma/client.js";
import { rowFromJson } from "../db/json-rows.js";
import { normalMessageTexts } from "../formats/chat-context-hash.js";
import { expiryCutoff } from "./retention-window.js";
import {
  countColumnList,
  countValues,
  eventJson,
  eventValueColumns,
  eventValuesFromJson,
  jsonOrNull,
  type NewTurn,
  segmentCountColumnList,
  segmentCountValues,
  segmentUsageColumnList,
  segmentUsageValues,
} from "./rows.js";
import { type Slots, statementPerShape } from "./shaped-statement.js";
import type { Store } from "./store.js";
import {
  countCharges,
  dialogUsageSets,
  isNoUsage,
  ledgerRow,
  ledgerUpsert,
  ledgerValues,
  pricedUsage,
  type UsageSums,
} from "./usage.js";
import { type EventCounts, eventCounts } from "../vocabulary/event-counts.js";

export interface TurnToInsert extends NewTurn {
  /** An existing dialog to lock and continue, or a new one to create with this turn as root (`tenantId` is stamped on it). */
  dialog: { id: string; isNew: boolean; tenantId: string };
  /** The explicit parent; absent means the dialog's head (or none, for a new dialog). */
  parent: { id: string; depth: number } | null;
  /** With no parent: a new first turn of the dialog, beside its others, not after its head. */
  fromStart?: boolean;
  now: Date;
}

export interface StoredTurn {
  /** The dialog's last seq before the write. */
  previousSeq: number;
  depth: number;
  /** The rows as committed, so the caller can answer without reading them back. */
  response: Response;
  dialog: Dialog;
  /** Its events as inserted, in seq order (when the statement that wrote them returned them). */
  events?: Event[];
}

/**
 * Stores the turn; "not-found" when the dialog does not exist, "expired" when it is past its
 * retention (nothing stored in those cases).
 */
export async function insertTurn(store: Store, turn: TurnToInsert): Promise<StoredTurn | "not-found" | "expired"> {
  const now = turn.now.toISOString();
  const events = [
    ...turn.input.map((event) => eventJson(event, "INPUT")),
    ...turn.output.map((event) => eventJson(event, "OUTPUT")),
  ];
  const { usage, parent } = turn;
  // The turn's usage, priced, goes into the dialog's totals, its segment's sums and the ledger in
  // this same statement (src/store/usage.ts); a turn without usage sends none of that.
  const priced = pricedUsage(store.prices, turn.model, usage);
  const cutoff = expiryCutoff(turn.now, store.retentionMs);
  const shape: TurnShape = {
    isNew: turn.dialog.isNew,
    // Past its retention a dialog takes no more writes, even before the sweeper deletes it.
    checksAlive: !turn.dialog.isNew && cutoff != null,
    charged: !isNoUsage(priced.sums),
    final: turn.status !== "IN_PROGRESS",
    fromStart: Boolean(turn.fromStart && !parent),
  };
  const all = [...turn.input, ...turn.output];
  const statement = turnStatement(shape, {
    turnId: turn.id,
    dialogId: turn.dialog.id,
    tenantId: turn.dialog.tenantId,
    now,
    cutoff,
    eventCount: events.length,
    parentId: parent?.id ?? null,
    depth: parent ? parent.depth + 1 : null,
    model: turn.model,
    status: turn.status,
    usage,
    sums: priced.sums,
    cost: priced.sums.cost,
    apiKeyId: turn.apiKeyId,
    error: jsonOrNull(turn.error),
    metadata: JSON.stringify(turn.metadata),
    completedAt: shape.final ? now : null,
    finishedEvents: shape.final ? events.length : null,
    idempotencyKey: turn.idempotencyKey,
    requestHash: turn.requestHash,
    messageTexts: shape.final ? normalMessageTexts(all) : null,
    counts: eventCounts(all),
    events: JSON.stringify(events),
    ledger: shape.charged ? ledgerRow({ ...priced, apiKeyId: turn.apiKeyId, model: turn.model, responses: 1 }, turn.dialog.id, turn.now) : null, // prettier-ignore
  });
  type Outcome = {
    previousSeq: number;
    depth: number | null;
    alive: boolean;
    response: unknown;
    events: unknown[];
    dialog: unknown;
  };
  const send = () => store.database.query<Outcome>(statement.text, statement.values);
  // A new dialog has no other writer; an existing one's writers take turns for the pool.
  const [row] = turn.dialog.isNew ? await send() : await store.dialogWriters.run(turn.dialog.id, send);
  if (!row) return "not-found";
  if (!row.alive || row.depth === null) return "expired";
  if (shape.charged) countCharges(store.prices, [{ model: turn.model, responses: 1, ...priced }]);
  return {
    previousSeq: row.previousSeq,
    depth: row.depth,
    response: rowFromJson("Response", row.response) as Response,
    dialog: rowFromJson("Dialog", row.dialog) as Dialog,
    events: row.events.map((event) => rowFromJson("Event", event) as Event),
  };
}

/** What decides the text of a turn's statement; everything else is a parameter. */
interface TurnShape {
  isNew: boolean;
  checksAlive: boolean;
  charged: boolean;
  final: boolean;
  fromStart: boolean;
}

/** A turn's parameters, by name (src/store/shaped-statement.ts). */
interface TurnValues {
  turnId: string;
  dialogId: string;
  tenantId: string;
  now: string;
  cutoff: string | null;
  eventCount: number;
  parentId: string | null;
  /** The explicit parent's depth + 1. */
  depth: number | null;
  model: string | null;
  status: string;
  usage: NewTurn["usage"];
  sums: UsageSums;
  cost: number;
  apiKeyId: string | null;
  error: string | null;
  metadata: string;
  completedAt: string | null;
  finishedEvents: number | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  messageTexts: string[] | null;
  counts: EventCounts;
  events: string;
  ledger: ReturnType<typeof ledgerRow> | null;
}

const shapeKey = (shape: TurnShape) =>
  (shape.isNew ? 1 : 0) | (shape.checksAlive ? 2 : 0) | (shape.charged ? 4 : 0) | (shape.final ? 8 : 0) | (shape.fromStart ? 16 : 0); // prettier-ignore

/** The one statement of a turn (see the top of this file), its text made once per shape. */
const turnStatement = statementPerShape<TurnShape, TurnValues>(shapeKey, (shape, p) => {
  const alive = shape.checksAlive ? Prisma.sql`d."updatedAt" > ${p.cutoff}::timestamp` : Prisma.sql`TRUE`;
  const totals = shape.charged ? Prisma.sql`, ${dialogUsageSets(p.sums, false)}` : Prisma.empty;
  const moveHead = shape.isNew
    ? Prisma.empty
    : Prisma.sql`, u AS (
        UPDATE "Dialog" SET "lastSeq" = d."lastSeq" + ${p.eventCount}::int, "headId" = r.id, "headDepth" = r.depth,
          "updatedAt" = ${p.now}::timestamp ${totals}
        FROM d, r WHERE "Dialog".id = d.id
        RETURNING to_jsonb("Dialog") AS after)`;
  const ledger = shape.charged
    ? Prisma.sql`, l AS (${ledgerValues(p.ledger, Prisma.sql`d."tenantId"`)} FROM d, r ${ledgerUpsert})`
    : Prisma.empty;
  const parentId = shape.fromStart ? Prisma.sql`NULL::text` : Prisma.sql`COALESCE(${p.parentId}::text, d."headId")`;
  // A finished turn's context is known now; one still in progress gets its hash when it finishes.
  const chatHash = shape.final
    ? Prisma.sql`"chatContextHash"(${parentId}, d."tenantId", ${p.messageTexts}::text[])`
    : Prisma.sql`NULL::text`;
  return Prisma.sql`
    WITH d AS (${lockedOrNewDialog(shape, p)}),
    r AS (
      INSERT INTO "Response" (id, "dialogId", "previousResponseId", depth, model, status, "inputTokens", "outputTokens",
        "reasoningTokens", "totalTokens", "cachedTokens", cost, "apiKeyId", error, metadata, "createdAt", "completedAt",
        "finishedAtSeq", "idempotencyKey", "requestHash", "chatHash", ${countColumnList}, "segmentId", ${segmentCountColumnList},
        ${segmentUsageColumnList})
      SELECT ${p.turnId}, d.id, ${parentId},
        ${shape.fromStart ? Prisma.sql`0` : Prisma.sql`COALESCE(${p.depth}::int, d."headDepth" + 1, 0)`},
        ${p.model}, ${p.status}::"ResponseStatus", ${p.usage.inputTokens}::int, ${p.usage.outputTokens}::int,
        ${p.usage.reasoningTokens}::int, ${p.usage.totalTokens}::int, ${p.usage.cachedTokens}::int, ${p.cost}::float8,
        ${p.apiKeyId}, ${p.error}::jsonb,
        ${p.metadata}::jsonb, ${p.now}::timestamp, ${p.completedAt}::timestamp,
        ${p.finishedEvents}::int + d."lastSeq", ${p.idempotencyKey}, ${p.requestHash}, ${chatHash},
        ${countValues(p.counts)}, COALESCE(tail."segmentId", ${p.turnId}), ${segmentCountValues(p.counts, "tail")},
        ${segmentUsageValues(p.sums, "tail")}
      FROM d LEFT JOIN LATERAL "segmentTail"(${parentId}) tail ON TRUE
      WHERE ${alive}
      RETURNING *),
    e AS (
      INSERT INTO "Event" (id, "dialogId", "responseId", seq, "segmentId", depth, ${eventValueColumns})
      SELECT ev->>'id', d.id, r.id, d."lastSeq" + t.ord, r."segmentId", r.depth, ${eventValuesFromJson(p.now)}
      FROM d, r, jsonb_array_elements(${p.events}::jsonb) WITH ORDINALITY AS t(ev, ord)
      RETURNING seq, to_jsonb("Event") AS item)
    ${moveHead} ${ledger}
    SELECT d."lastSeq" AS "previousSeq", r.depth, ${alive} AS alive, to_jsonb(r) AS response,
      (SELECT COALESCE(jsonb_agg(e.item ORDER BY e.seq), '[]'::jsonb) FROM e) AS events,
      ${shape.isNew ? Prisma.sql`d.after` : Prisma.sql`(SELECT after FROM u)`} AS dialog
    FROM d LEFT JOIN r ON TRUE`;
});

/**
 * The statement `d` of the turn's write: the existing dialog's row locked, or the new dialog
 * inserted with the turn as its head and the turn's usage as its totals.
 */
function lockedOrNewDialog(shape: TurnShape, p: Slots<TurnValues>) {
  return shape.isNew
    ? Prisma.sql`INSERT INTO "Dialog" (id, "tenantId", "lastSeq", "headId", "headDepth", "createdAt", "updatedAt",
          "inputTokens", "outputTokens", "cachedTokens", "reasoningTokens", cost)
        VALUES (${p.dialogId}, ${p.tenantId}, ${p.eventCount}, ${p.turnId}, 0, ${p.now}::timestamp, ${p.now}::timestamp,
          ${p.sums.inputTokens}::int, ${p.sums.outputTokens}::int, ${p.sums.cachedTokens}::int,
          ${p.sums.reasoningTokens}::int, ${p.sums.cost}::float8)
        RETURNING id, "tenantId", 0 AS "lastSeq", NULL::text AS "headId", NULL::int AS "headDepth", "updatedAt", to_jsonb("Dialog") AS after`
    : Prisma.sql`SELECT id, "tenantId", "lastSeq", "headId", "headDepth", "updatedAt", NULL::jsonb AS after FROM "Dialog" WHERE id = ${p.dialogId} FOR UPDATE`;
}

/** SQLSTATE 23505: from the drivers directly, or wrapped by Prisma (whose two adapters put it in different fields). */
export function isUniqueViolation(error: unknown) {
  if ((error as { code?: unknown } | null)?.code === "23505") return true;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const cause = (error.meta?.driverAdapterError as { cause?: { code?: string; originalCode?: string } } | undefined)
    ?.cause;
  return cause?.code === "23505" || cause?.originalCode === "23505";
}
