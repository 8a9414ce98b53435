-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "aiEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "humanEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reasoningEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "systemEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "toolCallEvents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "toolResultEvents" INTEGER NOT NULL DEFAULT 0;


-- Every statement that inserts events (a turn, an append, an import, a fork) adds them to their
-- responses' counts once, at its end, whichever code path wrote them. Events are only ever
-- deleted together with their response, so inserts are all there is to count.
CREATE FUNCTION "countResponseEvents"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Response" r SET
    "humanEvents" = r."humanEvents" + n.human,
    "aiEvents" = r."aiEvents" + n.ai,
    "reasoningEvents" = r."reasoningEvents" + n.reasoning,
    "toolCallEvents" = r."toolCallEvents" + n.tool_call,
    "toolResultEvents" = r."toolResultEvents" + n.tool_result,
    "systemEvents" = r."systemEvents" + n.system
  FROM (
    SELECT "responseId",
      count(*) FILTER (WHERE "type" = 'HUMAN') AS human,
      count(*) FILTER (WHERE "type" = 'AI') AS ai,
      count(*) FILTER (WHERE "type" = 'REASONING') AS reasoning,
      count(*) FILTER (WHERE "type" = 'TOOL_CALL') AS tool_call,
      count(*) FILTER (WHERE "type" = 'TOOL_RESULT') AS tool_result,
      count(*) FILTER (WHERE "type" = 'SYSTEM') AS system
    FROM inserted GROUP BY "responseId"
  ) n
  WHERE r.id = n."responseId";
  RETURN NULL;
END $$;

CREATE TRIGGER "Event_countResponseEvents" AFTER INSERT ON "Event"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "countResponseEvents"();

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
