// Checkpoints of in-flight text (src/services/in-flight-checkpoints.ts decides when): the
// response row says which part and type is open and when its agent was last heard from, and the
// text is the InFlightChunk pieces of that part. A checkpoint appends only the characters typed
// since the one before, so it costs its new text: rewriting the text on the row (with `||` as
// well) made PostgreSQL write the whole value again each time, O(n²) bytes for an n-character
// answer. They touch no seq, head, count or lifecycle column, so they need no dialog lock.
// Plain statements rather than Prisma's: a streamed answer checkpoints every few hundred
// milliseconds, and Prisma's query compiler costs several times PostgreSQL's work for a one-row update.
import { Prisma } from "../generated/prisma/client.js";
import type { HistoryEventType } from "../generated/prisma/enums.js";
import { run } from "./sql.js";
import type { Store } from "./store.js";

export interface CheckpointPiece {
  dialogId: string;
  responseId: string;
  part: number;
  type: HistoryEventType;
  /** When the agent last sent a delta. */
  at: Date;
  /** Where `text` starts: where the checkpointed text of `part` ends, or the piece is not added. */
  offset: number;
  text: string;
}

/**
 * Marks the response's open part and appends `piece.text` at `piece.offset` when the stored text
 * of that part ends exactly there (a part's first piece clears pieces of another part, which are
 * stale). Answers whether the
 * response is still IN_PROGRESS (nothing is written otherwise) and where its stored text of the
 * part ends now: past `offset` when the piece was added or another writer added it first.
 */
export async function appendCheckpoint(
  { database }: Store,
  piece: CheckpointPiece,
): Promise<{ inProgress: boolean; end: number }> {
  const { dialogId, responseId, part } = piece;
  const end = piece.offset + piece.text.length;
  const storedEnd = Prisma.sql`COALESCE((SELECT c."end" FROM "InFlightChunk" c
    WHERE c."dialogId" = ${dialogId} AND c."responseId" = ${responseId} AND c.part = ${part}::int
    ORDER BY c."offset" DESC LIMIT 1), 0)`;
  const [row] = await run<{ inProgress: boolean; end: number }>(
    Prisma.sql`WITH response AS (
      UPDATE "Response" SET "inFlightPart" = ${part}::int, "inFlightType" = ${piece.type}::"HistoryEventType",
        "inFlightAt" = ${piece.at.toISOString()}::timestamp
      WHERE "dialogId" = ${dialogId} AND id = ${responseId} AND status = 'IN_PROGRESS'
      RETURNING id
    ), stale AS (
      DELETE FROM "InFlightChunk" c USING response
      WHERE ${piece.offset}::int = 0 AND c."dialogId" = ${dialogId} AND c."responseId" = response.id
        AND c.part <> ${part}::int
    ), stored AS (SELECT ${storedEnd} AS "end"), added AS (
      INSERT INTO "InFlightChunk" ("dialogId", "responseId", part, "offset", "end", text)
      SELECT ${dialogId}, response.id, ${part}::int, ${piece.offset}::int, ${end}::int, ${piece.text}
      FROM response, stored WHERE ${end}::int > ${piece.offset}::int AND stored."end" = ${piece.offset}::int
      ON CONFLICT DO NOTHING
      RETURNING "end"
    )
    SELECT EXISTS (SELECT 1 FROM response) AS "inProgress",
      COALESCE((SELECT "end" FROM added), (SELECT "end" FROM stored))::int AS "end"`,
    database,
  );
  return row!;
}

/**
 * Forgets the text (every piece, whatever the response's status) but keeps when the agent was
 * last heard from (`at`) on a response still in progress.
 */
export async function eraseCheckpoint(
  { database }: Store,
  dialogId: string,
  responseId: string,
  at: Date,
): Promise<void> {
  await run(
    Prisma.sql`WITH gone AS (DELETE FROM "InFlightChunk" WHERE "dialogId" = ${dialogId} AND "responseId" = ${responseId})
    UPDATE "Response" SET "inFlightPart" = NULL, "inFlightType" = NULL, "inFlightAt" = ${at.toISOString()}::timestamp
    WHERE "dialogId" = ${dialogId} AND id = ${responseId} AND status = 'IN_PROGRESS' AND "inFlightAt" IS NOT NULL`,
    database,
  );
}

/**
 * The stored text of `alias`'s open part, as a column expression of a statement reading Response
 * rows as `alias` (null when it has none, or is no longer in progress).
 */
export const checkpointTextOf = (alias: string) =>
  Prisma.sql`(SELECT string_agg(c.text, '' ORDER BY c."offset") FROM "InFlightChunk" c
    WHERE c."dialogId" = ${Prisma.raw(`${alias}."dialogId"`)} AND c."responseId" = ${Prisma.raw(`${alias}.id`)} AND c.part = ${Prisma.raw(`${alias}."inFlightPart"`)}
      AND ${Prisma.raw(`${alias}.status`)} = 'IN_PROGRESS')`;
