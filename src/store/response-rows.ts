// The INSERT of a chain of new responses (DialogWrite.addTurns): one statement for the whole chain,
// the rows given as JSON, each response's running segment counts and usage computed in SQL.
import { Prisma } from "../generated/prisma/client.js";
import type { Response } from "../generated/prisma/client.js";
import { rowFromJson } from "../db/json-rows.js";
import { countColumns } from "../vocabulary/event-counts.js";
import { eventCounts, type NewTurn, segmentCountColumnList, segmentUsageColumnList } from "./rows.js";
import { run, type SqlRunner } from "./sql.js";
import { usageKinds } from "./usage.js";

/** One response of the chain, as insertResponseRows takes it. */
export type ResponseRow = { id: string } & Record<string, unknown>;

/**
 * `turn`'s row, continuing `previous` at `depth`: `cost` its usage priced, `chatHash` its chat
 * hash (null while it, or a turn before it, is in progress), `seq` the dialog's seq after its events.
 */
export function responseRow(
  turn: NewTurn,
  at: {
    previous: { id: string } | null;
    depth: number;
    cost: number;
    chatHash: Buffer | null;
    now: string;
    seq: number;
  },
): ResponseRow {
  const final = turn.status !== "IN_PROGRESS";
  return {
    ...turn.usage,
    ...eventCounts([...turn.input, ...turn.output]),
    cost: at.cost,
    apiKeyId: turn.apiKeyId,
    id: turn.id,
    previousResponseId: at.previous?.id ?? null,
    depth: at.depth,
    model: turn.model,
    status: turn.status,
    error: turn.error ?? null,
    metadata: turn.metadata,
    idempotencyKey: turn.idempotencyKey,
    requestHash: turn.requestHash,
    chatHash: at.chatHash?.toString("hex") ?? null,
    createdAt: turn.times?.created.toISOString() ?? null,
    completedAt: final ? (turn.times?.completed.toISOString() ?? at.now) : null,
    // A finished response records the seq its status became final at.
    finishedAtSeq: final ? at.seq : null,
  };
}

/** Inserts `responses` (a chain, oldest first, continuing `parentId`) and returns them as stored. */
export async function insertResponseRows(
  session: SqlRunner,
  dialogId: string,
  parentId: string | null,
  responses: ResponseRow[],
  now: string,
): Promise<Response[]> {
  const firstId = responses[0]!.id;
  // The turns form a chain, so they share one segment: the parent's when the parent is its
  // segment's last response ("segmentTail"), else a new one named after the first turn. Their
  // segment counts run on from the parent's.
  const inSegment = (column: string) =>
    Prisma.raw(`COALESCE(t."${column}InSegment", 0) + sum(COALESCE(x."${column}", 0)) OVER (ORDER BY x.depth)`);
  // Rows of one INSERT may reference each other: foreign keys are checked at its end.
  const rows = await run<{ row: unknown }>(
    Prisma.sql`
    WITH t AS (SELECT * FROM "segmentTail"(${parentId}::text)),
    r AS (
      INSERT INTO "Response" (id, "dialogId", "previousResponseId", depth, model, status, "inputTokens", "outputTokens",
        "reasoningTokens", "totalTokens", error, metadata, "createdAt", "completedAt", "finishedAtSeq", "idempotencyKey",
        "requestHash", "chatHash", "humanEvents", "aiEvents", "reasoningEvents", "toolCallEvents", "toolResultEvents",
        "systemEvents", "segmentId", ${segmentCountColumnList}, "cachedTokens", cost, "apiKeyId", ${segmentUsageColumnList})
      SELECT x.id, ${dialogId}, x."previousResponseId", x.depth, x.model, x.status, x."inputTokens",
        x."outputTokens", x."reasoningTokens", x."totalTokens", x.error, COALESCE(x.metadata, '{}'), COALESCE(x."createdAt", ${now}::timestamp),
        x."completedAt", x."finishedAtSeq", x."idempotencyKey", x."requestHash", x."chatHash", x."humanEvents", x."aiEvents",
        x."reasoningEvents", x."toolCallEvents", x."toolResultEvents", x."systemEvents",
        COALESCE(t."segmentId", ${firstId}), ${Prisma.join(Object.values(countColumns).map(inSegment))},
        x."cachedTokens", x.cost, x."apiKeyId", ${Prisma.join([...usageKinds, "cost"].map(inSegment))}
      FROM jsonb_to_recordset(${JSON.stringify(responses)}::jsonb) AS x(id text, "previousResponseId" text, depth int,
        model text, status "ResponseStatus", "inputTokens" int, "outputTokens" int, "reasoningTokens" int,
        "totalTokens" int, error jsonb, metadata jsonb, "createdAt" timestamp, "completedAt" timestamp, "finishedAtSeq" int,
        "idempotencyKey" text, "requestHash" text, "chatHash" text, "humanEvents" int, "aiEvents" int, "reasoningEvents" int,
        "toolCallEvents" int, "toolResultEvents" int, "systemEvents" int, "cachedTokens" int, cost float8, "apiKeyId" text)
      LEFT JOIN t ON TRUE
      RETURNING *)
    SELECT to_jsonb(r) AS row FROM r ORDER BY r.depth`,
    session,
  );
  return rows.map(({ row }) => rowFromJson("Response", row) as Response);
}
