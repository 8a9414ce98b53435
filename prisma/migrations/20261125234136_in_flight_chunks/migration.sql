-- In-flight checkpoints append pieces (issue 29): a checkpoint writes the characters typed since
-- the one before into InFlightChunk instead of rewriting the whole text on the Response row.

-- CreateTable
CREATE TABLE "InFlightChunk" (
    "responseId" TEXT NOT NULL,
    "part" INTEGER NOT NULL,
    "offset" INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "InFlightChunk_pkey" PRIMARY KEY ("responseId","part","offset")
);

-- AddForeignKey
ALTER TABLE "InFlightChunk" ADD CONSTRAINT "InFlightChunk_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The checkpointed text of a response still in progress becomes its first piece. Its end is
-- counted in UTF-16 code units, as the application counts: one per character, two for a
-- character beyond U+FFFF.
INSERT INTO "InFlightChunk" ("responseId", "part", "offset", "end", "text")
SELECT "id", "inFlightPart", 0,
  length("inFlightText") + length(regexp_replace("inFlightText", '[^\U00010000-\U0010FFFF]', '', 'g')),
  "inFlightText"
FROM "Response"
WHERE "status" = 'IN_PROGRESS' AND "inFlightPart" IS NOT NULL AND "inFlightText" <> '';

-- AlterTable
ALTER TABLE "Response" DROP COLUMN "inFlightText";
