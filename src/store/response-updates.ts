// The statements that change Response rows for a write (DialogWrite): the update of a response's
// segment from it on (its events appended: counts grow on its row and the rows after it), which
// a change of the response's own row in the same write joins (its end: one statement), and the
// own row's update and its segment's usage sums when nothing is there to join.
import { Prisma } from "../generated/prisma/client.js";
import { type UsageSums, segmentUsageColumns, usageKinds } from "./usage.js";

/** A column of a response's own row and its new value. */
export type OwnSet = [column: string, value: Prisma.Sql];

/**
 * The SET items of an update of a response's row and the rows after it in its segment (as `u`):
 * `all` for every one of them, `own` for the response's row only. Made into a statement when it
 * is sent (segmentUpdate), so a later change of the same write may still add to it.
 */
export interface SegmentUpdate {
  all: Prisma.Sql[];
  own: OwnSet[];
}

const column = (name: string) => Prisma.raw(`"${name}"`);

/** The update of `responseId`'s segment from it on, returning the rows as it leaves them. */
export function segmentUpdate(dialogId: string, responseId: string, update: SegmentUpdate) {
  const own = update.own.map(
    ([name, value]) =>
      Prisma.sql`${column(name)} = CASE WHEN u.id = ${responseId} THEN ${value} ELSE u.${column(name)} END`,
  );
  return Prisma.sql`UPDATE "Response" u SET ${Prisma.join([...update.all, ...own])}
    FROM (SELECT "segmentId", depth FROM "Response" WHERE "dialogId" = ${dialogId} AND id = ${responseId}) p
    WHERE u."dialogId" = ${dialogId} AND u."segmentId" = p."segmentId" AND u.depth >= p.depth
    RETURNING u.id, to_jsonb(u) AS item`;
}

/** The update of a response's own row alone, returning it. */
export function ownUpdate(dialogId: string, responseId: string, own: OwnSet[], sums: Prisma.Sql[]) {
  const sets = [...own.map(([name, value]) => Prisma.sql`${column(name)} = ${value}`), ...sums];
  return Prisma.sql`UPDATE "Response" SET ${Prisma.join(sets)} WHERE "dialogId" = ${dialogId} AND id = ${responseId}
    RETURNING id, to_jsonb("Response") AS item`;
}

/** The rows after a response in its segment (at `depth`) take the same usage sums. */
export const afterUpdate = (dialogId: string, segmentId: string, depth: number, sums: Prisma.Sql[]) =>
  Prisma.sql`UPDATE "Response" SET ${Prisma.join(sums)}
    WHERE "dialogId" = ${dialogId} AND "segmentId" = ${segmentId} AND depth > ${depth}::int`;

/** SET items adding a usage difference to a segment's sums (`row`: the updated table's alias, with its dot). */
export function segmentSums(delta: UsageSums, row = "") {
  return segmentUsageColumns.map((name, i) => {
    const amount = i < usageKinds.length ? delta[usageKinds[i]!] : delta.cost;
    const cast = Prisma.raw(name === "costInSegment" ? "float8" : "int");
    return Prisma.sql`${column(name)} = ${Prisma.raw(row)}${column(name)} + ${amount}::${cast}`;
  });
}

/** The checkpointed pieces of a response's in-flight text, deleted when the text ends. */
export const chunkDelete = (dialogId: string, responseId: string) =>
  Prisma.sql`DELETE FROM "InFlightChunk" WHERE "dialogId" = ${dialogId} AND "responseId" = ${responseId}`;
