-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "aiEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "humanEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reasoningEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "systemEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "toolCallEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "toolResultEvents" INTEGER NOT NULL DEFAULT 0;


-- dialogql adds to these counts wherever it adds events (src/services/event-counts.ts).
-- Responses written before this migration.
UPDATE "Response" r SET
  "humanEvents" = n.human, "aiEvents" = n.ai, "reasoningEvents" = n.reasoning,
  "toolCallEvents" = n.tool_call, "toolResultEvents" = n.tool_result, "systemEvents" = n.system
FROM (
  SELECT "responseId",
    count(*) FILTER (WHERE "type" = 'HUMAN') AS human,
    count(*) FILTER (WHERE "type" = 'AI') AS ai,
    count(*) FILTER (WHERE "type" = 'REASONING') AS reasoning,
    count(*) FILTER (WHERE "type" = 'TOOL_CALL') AS tool_call,
    count(*) FILTER (WHERE "type" = 'TOOL_RESULT') AS tool_result,
    count(*) FILTER (WHERE "type" = 'SYSTEM') AS system
  FROM "Event" GROUP BY "responseId"
) n
WHERE r.id = n."responseId";
