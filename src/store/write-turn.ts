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
import { run } from "./sql.js";
import type { Store } from "./store.js";
import {
  countCharges,
  dialogUsageSets,
  isNoUsage,
  ledgerUpsert,
  ledgerValues,
  pricedUsage,
  type UsageSums,
} from "./usage.js";

type PricedUsage = ReturnType<typeof pricedUsage>;

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
  const charged = !isNoUsage(priced.sums);
  const dialog = lockedOrNewDialog(turn, events.length, priced.sums);
  // Past its retention a dialog takes no more writes, even before the sweeper deletes it.
  const cutoff = expiryCutoff(turn.now, store.retentionMs);
  const alive =
    turn.dialog.isNew || cutoff == null ? Prisma.sql`TRUE` : Prisma.sql`d."updatedAt" > ${cutoff}::timestamp`;
  const totals = charged ? Prisma.sql`, ${dialogUsageSets(priced.sums, false)}` : Prisma.empty;
  const moveHead = turn.dialog.isNew
    ? Prisma.empty
    : Prisma.sql`, u AS (
        UPDATE "Dialog" SET "lastSeq" = d."lastSeq" + ${events.length}, "headId" = r.id, "headDepth" = r.depth,
          "updatedAt" = ${now}::timestamp ${totals}
        FROM d, r WHERE "Dialog".id = d.id
        RETURNING to_jsonb("Dialog") AS after)`;
  const ledger = charged ? ledgerOfTurn(turn, priced) : Prisma.empty;
  const final = turn.status !== "IN_PROGRESS";
  const all = [...turn.input, ...turn.output];
  const fromStart = turn.fromStart && !parent;
  const parentId = fromStart ? Prisma.sql`NULL::text` : Prisma.sql`COALESCE(${parent?.id ?? null}::text, d."headId")`;
  // A finished turn's context is known now; one still in progress gets its hash when it finishes.
  const chatHash = final
    ? Prisma.sql`"chatContextHash"(${parentId}, d."tenantId", ${normalMessageTexts(all)}::text[])`
    : Prisma.sql`NULL::text`;
  const statement = Prisma.sql`
    WITH d AS (${dialog}),
    r AS (
      INSERT INTO "Response" (id, "dialogId", "previousResponseId", depth, model, status, "inputTokens", "outputTokens",
        "reasoningTokens", "totalTokens", "cachedTokens", cost, "apiKeyId", error, metadata, "createdAt", "completedAt",
        "finishedAtSeq", "idempotencyKey", "requestHash", "chatHash", ${countColumnList}, "segmentId", ${segmentCountColumnList},
        ${segmentUsageColumnList})
      SELECT ${turn.id}, d.id, ${parentId},
        ${fromStart ? Prisma.sql`0` : Prisma.sql`COALESCE(${parent ? parent.depth + 1 : null}::int, d."headDepth" + 1, 0)`},
        ${turn.model}, ${turn.status}::"ResponseStatus", ${usage.inputTokens}::int, ${usage.outputTokens}::int,
        ${usage.reasoningTokens}::int, ${usage.totalTokens}::int, ${usage.cachedTokens}::int, ${priced.sums.cost}::float8,
        ${turn.apiKeyId}, ${jsonOrNull(turn.error)}::jsonb,
        ${JSON.stringify(turn.metadata)}::jsonb, ${now}::timestamp, ${final ? now : null}::timestamp,
        ${final ? events.length : null}::int + d."lastSeq", ${turn.idempotencyKey}, ${turn.requestHash}, ${chatHash},
        ${countValues(all)}, COALESCE(tail."segmentId", ${turn.id}), ${segmentCountValues(all, "tail")},
        ${segmentUsageValues(priced.sums, "tail")}
      FROM d LEFT JOIN LATERAL "segmentTail"(${parentId}) tail ON TRUE
      WHERE ${alive}
      RETURNING *),
    e AS (
      INSERT INTO "Event" (id, "dialogId", "responseId", seq, "segmentId", depth, ${eventValueColumns})
      SELECT ev->>'id', d.id, r.id, d."lastSeq" + t.ord, r."segmentId", r.depth, ${eventValuesFromJson(now)}
      FROM d, r, jsonb_array_elements(${JSON.stringify(events)}::jsonb) WITH ORDINALITY AS t(ev, ord)
      RETURNING seq, to_jsonb("Event") AS item)
    ${moveHead} ${ledger}
    SELECT d."lastSeq" AS "previousSeq", r.depth, ${alive} AS alive, to_jsonb(r) AS response,
      (SELECT COALESCE(jsonb_agg(e.item ORDER BY e.seq), '[]'::jsonb) FROM e) AS events,
      ${turn.dialog.isNew ? Prisma.sql`d.after` : Prisma.sql`(SELECT after FROM u)`} AS dialog
    FROM d LEFT JOIN r ON TRUE`;
  type Outcome = {
    previousSeq: number;
    depth: number | null;
    alive: boolean;
    response: unknown;
    events: unknown[];
    dialog: unknown;
  };
  // A new dialog has no other writer; an existing one's writers take turns for the pool.
  const [row] = turn.dialog.isNew
    ? await run<Outcome>(statement, store.database)
    : await store.dialogWriters.run(turn.dialog.id, () => run<Outcome>(statement, store.database));
  if (!row) return "not-found";
  if (!row.alive || row.depth === null) return "expired";
  if (charged) countCharges(store.prices, [{ model: turn.model, responses: 1, ...priced }]);
  return {
    previousSeq: row.previousSeq,
    depth: row.depth,
    response: rowFromJson("Response", row.response) as Response,
    dialog: rowFromJson("Dialog", row.dialog) as Dialog,
    events: row.events.map((event) => rowFromJson("Event", event) as Event),
  };
}

/**
 * The statement `d` of the turn's write: the existing dialog's row locked, or the new dialog
 * inserted with the turn as its head and the turn's usage as its totals.
 */
function lockedOrNewDialog(turn: TurnToInsert, eventCount: number, sums: UsageSums) {
  const now = turn.now.toISOString();
  return turn.dialog.isNew
    ? Prisma.sql`INSERT INTO "Dialog" (id, "tenantId", "lastSeq", "headId", "headDepth", "createdAt", "updatedAt",
          "inputTokens", "outputTokens", "cachedTokens", "reasoningTokens", cost)
        VALUES (${turn.dialog.id}, ${turn.dialog.tenantId}, ${eventCount}, ${turn.id}, 0, ${now}::timestamp, ${now}::timestamp,
          ${sums.inputTokens}::int, ${sums.outputTokens}::int, ${sums.cachedTokens}::int,
          ${sums.reasoningTokens}::int, ${sums.cost}::float8)
        RETURNING id, "tenantId", 0 AS "lastSeq", NULL::text AS "headId", NULL::int AS "headDepth", "updatedAt", to_jsonb("Dialog") AS after`
    : Prisma.sql`SELECT id, "tenantId", "lastSeq", "headId", "headDepth", "updatedAt", NULL::jsonb AS after FROM "Dialog" WHERE id = ${turn.dialog.id} FOR UPDATE`;
}

/** The CTE `l` that charges the turn's priced usage to the ledger (src/store/usage.ts). */
function ledgerOfTurn(turn: TurnToInsert, priced: PricedUsage) {
  const entry = {
    apiKeyId: turn.apiKeyId,
    model: turn.model,
    responses: 1,
    sums: priced.sums,
    unpricedTokens: priced.unpricedTokens,
  };
  return Prisma.sql`, l AS (${ledgerValues(entry, Prisma.sql`d."tenantId"`, turn.dialog.id, turn.now)} FROM d, r ${ledgerUpsert})`;
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
