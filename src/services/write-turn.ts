// Storing a turn in ONE SQL statement: data-modifying CTEs lock the dialog row, insert the
// response and its events with seqs counted from the locked `lastSeq`, and move the head. One
// statement is atomic on its own, so no interactive transaction is needed (through Prisma an
// interactive transaction costs about three times the same SQL sent as one statement), and
// concurrent writers to a dialog still queue on its row lock, so seqs stay gap-free. It is sent
// outside Prisma (`database.query`), which halves the CPU a turn costs.
//
// Under READ COMMITTED a statement that waited for the lock sees the newest version of the
// locked row but not rows other writers inserted meanwhile; that is why the head's depth is
// read from the dialog row (`headDepth`) rather than from the head response.
import { database } from "../db/prisma.js";
import { Prisma } from "../generated/prisma/client.js";
import type { Dialog, Response } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { rowFromJson } from "../db/json-rows.js";
import { newEventId } from "../ids.js";
import type { NewEvent } from "./event-input.js";
import { countColumns, eventCounts } from "./event-counts.js";
import { retentionMs } from "./retention.js";

export interface TurnToInsert {
  responseId: string;
  /** An existing dialog to lock and continue, or a new one to create with this turn as root. */
  /** `tenantId` is stamped on a new dialog. */
  dialog: { id: string; isNew: boolean; tenantId: string };
  /** The explicit parent; absent means the dialog's head (or none, for a new dialog). */
  parent: { id: string; depth: number } | null;
  /**
   * When chaining to the head: store the turn only if the head is still this one (validation
   * was done against its context). A moved head makes insertTurn return "head-moved".
   */
  expectedHeadId?: string | null;
  model: string | null;
  status: ResponseStatus;
  usage: {
    inputTokens: number | null;
    outputTokens: number | null;
    reasoningTokens: number | null;
    totalTokens: number | null;
  };
  error: unknown;
  metadata: Record<string, unknown>;
  idempotencyKey: string | null;
  requestHash: string | null;
  input: NewEvent[];
  output: NewEvent[];
  now: Date;
}

/**
 * Returns the dialog's seq before the write, the new response's depth, and the response and
 * dialog rows as the write left them; "not-found" when the
 * dialog does not exist, "expired" when it is past its retention, "head-moved" when
 * `expectedHeadId` no longer holds (nothing stored in those cases).
 */
export async function insertTurn(turn: TurnToInsert) {
  const now = turn.now.toISOString();
  const events = [
    ...turn.input.map((event) => eventRow(event, "INPUT")),
    ...turn.output.map((event) => eventRow(event, "OUTPUT")),
  ];
  const { usage, parent } = turn;
  const dialog = turn.dialog.isNew
    ? Prisma.sql`INSERT INTO "Dialog" (id, "tenantId", "lastSeq", "headId", "headDepth", "createdAt", "updatedAt")
        VALUES (${turn.dialog.id}, ${turn.dialog.tenantId}, ${events.length}, ${turn.responseId}, 0, ${now}::timestamp, ${now}::timestamp)
        RETURNING id, 0 AS "lastSeq", NULL::text AS "headId", NULL::int AS "headDepth", "updatedAt", to_jsonb("Dialog") AS after`
    : Prisma.sql`SELECT id, "lastSeq", "headId", "headDepth", "updatedAt", NULL::jsonb AS after FROM "Dialog" WHERE id = ${turn.dialog.id} FOR UPDATE`;
  // Past its retention a dialog takes no more writes, even before the sweeper deletes it.
  const cutoff = retentionMs == null ? null : new Date(turn.now.getTime() - retentionMs).toISOString();
  const alive =
    turn.dialog.isNew || cutoff == null ? Prisma.sql`TRUE` : Prisma.sql`d."updatedAt" > ${cutoff}::timestamp`;
  const moveHead = turn.dialog.isNew
    ? Prisma.empty
    : Prisma.sql`, u AS (
        UPDATE "Dialog" SET "lastSeq" = d."lastSeq" + ${events.length}, "headId" = r.id, "headDepth" = r.depth,
          "updatedAt" = ${now}::timestamp
        FROM d, r WHERE "Dialog".id = d.id
        RETURNING to_jsonb("Dialog") AS after)`;
  const statement = Prisma.sql`
    WITH d AS (${dialog}),
    r AS (
      INSERT INTO "Response" (id, "dialogId", "previousResponseId", depth, model, status, "inputTokens", "outputTokens",
        "reasoningTokens", "totalTokens", error, metadata, "createdAt", "completedAt", "finishedAtSeq", "idempotencyKey",
        "requestHash", ${countColumnList})
      SELECT ${turn.responseId}, d.id, COALESCE(${parent?.id ?? null}::text, d."headId"),
        COALESCE(${parent ? parent.depth + 1 : null}::int, d."headDepth" + 1, 0),
        ${turn.model}, ${turn.status}::"ResponseStatus", ${usage.inputTokens}::int, ${usage.outputTokens}::int,
        ${usage.reasoningTokens}::int, ${usage.totalTokens}::int, ${jsonOrNull(turn.error)}::jsonb,
        ${JSON.stringify(turn.metadata)}::jsonb, ${now}::timestamp,
        ${turn.status === "IN_PROGRESS" ? null : now}::timestamp,
        ${turn.status === "IN_PROGRESS" ? null : events.length}::int + d."lastSeq", ${turn.idempotencyKey}, ${turn.requestHash},
        ${countValues([...turn.input, ...turn.output])}
      FROM d
      WHERE ${alive}
      ${turn.expectedHeadId !== undefined ? Prisma.sql`AND d."headId" IS NOT DISTINCT FROM ${turn.expectedHeadId}::text` : Prisma.empty}
      RETURNING *),
    e AS (
      INSERT INTO "Event" (id, "dialogId", "responseId", seq, phase, type, content, parts, "modelName", "callId",
        "toolName", args, "isError", metadata, "createdAt")
      SELECT ev->>'id', d.id, r.id, d."lastSeq" + t.ord, (ev->>'phase')::"EventPhase", (ev->>'type')::"HistoryEventType",
        ev->>'content', NULLIF(ev->'parts', 'null'), ev->>'modelName', ev->>'callId', ev->>'toolName',
        NULLIF(ev->'args', 'null'), (ev->>'isError')::boolean, ev->'metadata',
        COALESCE((ev->>'createdAt')::timestamp, ${now}::timestamp)
      FROM d, r, jsonb_array_elements(${JSON.stringify(events)}::jsonb) WITH ORDINALITY AS t(ev, ord))
    ${moveHead}
    SELECT d."lastSeq" AS "previousSeq", r.depth, ${alive} AS alive, to_jsonb(r) AS response,
      ${turn.dialog.isNew ? Prisma.sql`d.after` : Prisma.sql`(SELECT after FROM u)`} AS dialog
    FROM d LEFT JOIN r ON TRUE`;
  type Outcome = { previousSeq: number; depth: number | null; alive: boolean; response: unknown; dialog: unknown };
  const [row] = await database.query<Outcome>(statement.text, statement.values);
  if (!row) return "not-found" as const;
  if (!row.alive) return "expired" as const;
  if (row.depth === null) return "head-moved" as const;
  return {
    previousSeq: row.previousSeq,
    depth: row.depth,
    // The rows as committed, so the caller can answer without reading them back.
    response: rowFromJson("Response", row.response) as Response,
    dialog: rowFromJson("Dialog", row.dialog) as Dialog,
  };
}

function eventRow(event: NewEvent, phase: "INPUT" | "OUTPUT") {
  // Timestamps travel as UTC ISO strings; the cast to `timestamp` keeps their UTC wall-clock
  // time, which is how Prisma stores DateTime.
  return { ...event, id: newEventId(), phase, createdAt: event.createdAt?.toISOString() ?? null };
}

const countColumnList = Prisma.raw(Object.values(countColumns).map((column) => `"${column}"`).join(", "));
const countValues = (events: NewEvent[]) => {
  const counts = eventCounts(events);
  return Prisma.join(Object.values(countColumns).map((column) => Prisma.sql`${counts[column]}::int`));
};

const jsonOrNull = (value: unknown) => (value == null ? null : JSON.stringify(value));

/** SQLSTATE 23505: from the drivers directly, or wrapped by Prisma (whose two adapters put it in different fields). */
export function isUniqueViolation(error: unknown) {
  if ((error as { code?: unknown } | null)?.code === "23505") return true;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const cause = (error.meta?.driverAdapterError as { cause?: { code?: string; originalCode?: string } } | undefined)
    ?.cause;
  return cause?.code === "23505" || cause?.originalCode === "23505";
}
