-- Context addressing by linear segments (docs/architecture.md, "Context addressing"): every
-- response names the segment it belongs to (the id of the segment's first response) and carries
-- its segment's running event counts; every event carries its response's (segmentId, depth).

-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "aiEventsInSegment" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "humanEventsInSegment" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reasoningEventsInSegment" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "segmentId" TEXT,
ADD COLUMN     "systemEventsInSegment" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "toolCallEventsInSegment" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "toolResultEventsInSegment" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "depth" INTEGER,
ADD COLUMN     "segmentId" TEXT;

-- Responses written before this migration. A response continues its parent's segment when it is
-- the parent's oldest child, and starts its own otherwise (a root or a later branch). The walk goes
-- down from the roots one generation at a time, finding children through the previousResponseId
-- index: without the two settings the planner may hash-join every generation against all of
-- "Response", which costs the table's size once per level of the deepest chain.
SET LOCAL enable_hashjoin = off;
SET LOCAL enable_mergejoin = off;
WITH RECURSIVE placed AS (
  SELECT id, id AS "segmentId" FROM "Response" WHERE "previousResponseId" IS NULL
  UNION ALL
  SELECT c.id,
    CASE WHEN EXISTS (
      SELECT 1 FROM "Response" o
      WHERE o."previousResponseId" = c."previousResponseId" AND (o."createdAt", o.id) < (c."createdAt", c.id)
    ) THEN c.id ELSE p."segmentId" END
  FROM placed p JOIN "Response" c ON c."previousResponseId" = p.id
)
UPDATE "Response" r SET "segmentId" = placed."segmentId" FROM placed WHERE r.id = placed.id;
RESET enable_hashjoin;
RESET enable_mergejoin;

UPDATE "Response" r SET
  "humanEventsInSegment" = s.human, "aiEventsInSegment" = s.ai, "reasoningEventsInSegment" = s.reasoning,
  "toolCallEventsInSegment" = s.tool_call, "toolResultEventsInSegment" = s.tool_result,
  "systemEventsInSegment" = s.system
FROM (
  SELECT id,
    sum("humanEvents") OVER w AS human, sum("aiEvents") OVER w AS ai, sum("reasoningEvents") OVER w AS reasoning,
    sum("toolCallEvents") OVER w AS tool_call, sum("toolResultEvents") OVER w AS tool_result,
    sum("systemEvents") OVER w AS system
  FROM "Response" WINDOW w AS (PARTITION BY "segmentId" ORDER BY depth)
) s
WHERE r.id = s.id;

UPDATE "Event" e SET "segmentId" = r."segmentId", depth = r.depth FROM "Response" r WHERE r.id = e."responseId";

ALTER TABLE "Response" ALTER COLUMN "segmentId" SET NOT NULL;
ALTER TABLE "Event" ALTER COLUMN "segmentId" SET NOT NULL, ALTER COLUMN "depth" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Response_segmentId_depth_key" ON "Response"("segmentId", "depth");

-- CreateIndex
CREATE INDEX "Event_segmentId_depth_seq_idx" ON "Event"("segmentId", "depth", "seq");

-- The response a new child of `parent` continues: the parent itself when it is the last response
-- of its segment, else nothing (the child starts a segment). VOLATILE, so that in READ COMMITTED
-- it reads with a snapshot of its own, taken when it runs: a one-statement write
-- (src/store/write-turn.ts) calls it after waiting for the dialog's row lock, and must see the
-- responses the writer it waited for committed, which the statement's own snapshot does not.
CREATE FUNCTION "segmentTail"(parent TEXT)
RETURNS TABLE (
  "segmentId" TEXT, "humanEventsInSegment" INTEGER, "aiEventsInSegment" INTEGER,
  "reasoningEventsInSegment" INTEGER, "toolCallEventsInSegment" INTEGER,
  "toolResultEventsInSegment" INTEGER, "systemEventsInSegment" INTEGER
)
LANGUAGE sql VOLATILE AS $$
  SELECT p."segmentId", p."humanEventsInSegment", p."aiEventsInSegment", p."reasoningEventsInSegment",
    p."toolCallEventsInSegment", p."toolResultEventsInSegment", p."systemEventsInSegment"
  FROM "Response" p
  WHERE p.id = parent
    AND NOT EXISTS (SELECT 1 FROM "Response" c WHERE c."segmentId" = p."segmentId" AND c.depth = p.depth + 1)
$$;

-- Up to `n` events of one segment at depths up to `up_to`, after (after_depth, after_seq) and
-- before (before_depth, before_seq) when given, of `types` when given, in context order (or
-- reversed): always read as one ordered range of "Event_segmentId_depth_seq_idx" that stops after
-- `n` rows. Without the two settings, the planner picks a bitmap scan and a sort whenever its
-- statistics make a segment look small (always, on PGlite, which never analyses its tables by
-- itself), and that reads the whole segment to return a page of it.
CREATE FUNCTION "segmentEvents"(
  segment TEXT, up_to INTEGER, after_depth INTEGER, after_seq INTEGER, before_depth INTEGER, before_seq INTEGER,
  types TEXT[], n BIGINT, backwards BOOLEAN
)
RETURNS SETOF "Event"
LANGUAGE plpgsql STABLE
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $$
BEGIN
  IF backwards THEN
    RETURN QUERY SELECT * FROM "Event" e
      WHERE e."segmentId" = segment AND e.depth <= up_to
        AND (e.depth, e.seq) > (COALESCE(after_depth, -1), COALESCE(after_seq, 0))
        AND (e.depth, e.seq) < (COALESCE(before_depth, 2147483647), COALESCE(before_seq, 0))
        AND (types IS NULL OR e.type::text = ANY(types))
      ORDER BY e.depth DESC, e.seq DESC LIMIT n;
  ELSE
    RETURN QUERY SELECT * FROM "Event" e
      WHERE e."segmentId" = segment AND e.depth <= up_to
        AND (e.depth, e.seq) > (COALESCE(after_depth, -1), COALESCE(after_seq, 0))
        AND (e.depth, e.seq) < (COALESCE(before_depth, 2147483647), COALESCE(before_seq, 0))
        AND (types IS NULL OR e.type::text = ANY(types))
      ORDER BY e.depth, e.seq LIMIT n;
  END IF;
END
$$;
