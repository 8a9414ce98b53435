-- Keys that include the dialog (issue 32, docs/scaling.md "Tables ready to distribute by dialog"):
-- a database that spreads Response and InFlightChunk over machines by dialog id (Citus) enforces a
-- unique key or a primary key only when it includes that column. Each gains it as its last column,
-- so every statement that used the key before uses it the same way now (it leads with what it led
-- with); and since a segment and a response's text never leave their dialog, what is unique is
-- unchanged.

-- A segment never forks (see 20261123120000_context_segments), now with its dialog in the key.
DROP INDEX "Response_segmentId_depth_key";
CREATE UNIQUE INDEX "Response_segmentId_depth_dialogId_key" ON "Response"("segmentId", "depth", "dialogId");

-- The pieces of a response's in-flight text carry its dialog, written by the checkpoint that adds
-- them; the pieces stored before take their response's.
ALTER TABLE "InFlightChunk" ADD COLUMN "dialogId" TEXT;
UPDATE "InFlightChunk" c SET "dialogId" = r."dialogId" FROM "Response" r WHERE r."id" = c."responseId";
ALTER TABLE "InFlightChunk" ALTER COLUMN "dialogId" SET NOT NULL;
ALTER TABLE "InFlightChunk" DROP CONSTRAINT "InFlightChunk_pkey";
ALTER TABLE "InFlightChunk" ADD CONSTRAINT "InFlightChunk_pkey" PRIMARY KEY ("responseId", "part", "offset", "dialogId");
