-- CreateEnum
CREATE TYPE "BudgetScope" AS ENUM ('KEY', 'TENANT');

-- CreateEnum
CREATE TYPE "BudgetUnit" AS ENUM ('TOKENS', 'COST');

-- CreateEnum
CREATE TYPE "BudgetPeriod" AS ENUM ('DAY', 'MONTH');

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "admin" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Dialog" ADD COLUMN     "cachedTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "inputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "outputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reasoningTokens" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "apiKeyId" TEXT,
ADD COLUMN     "cachedTokens" INTEGER,
ADD COLUMN     "cachedTokensInSegment" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "costInSegment" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "inputTokensInSegment" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "outputTokensInSegment" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reasoningTokensInSegment" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "UsageDaily" (
    "tenantId" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "shard" SMALLINT NOT NULL,
    "responses" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" BIGINT NOT NULL DEFAULT 0,
    "outputTokens" BIGINT NOT NULL DEFAULT 0,
    "cachedTokens" BIGINT NOT NULL DEFAULT 0,
    "reasoningTokens" BIGINT NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "unpricedTokens" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "UsageDaily_pkey" PRIMARY KEY ("tenantId","day","model","apiKeyId","shard")
);

-- CreateTable
CREATE TABLE "Budget" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "scope" "BudgetScope" NOT NULL,
    "subject" TEXT NOT NULL,
    "unit" "BudgetUnit" NOT NULL,
    "period" "BudgetPeriod" NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Budget_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UsageDaily_apiKeyId_day_idx" ON "UsageDaily"("apiKeyId", "day");

-- CreateIndex
CREATE INDEX "Budget_tenantId_idx" ON "Budget"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "Budget_scope_subject_unit_period_key" ON "Budget"("scope", "subject", "unit", "period");


-- "segmentTail" also answers the parent's usage sums, so a new turn's sums run on from them in the
-- same statement (docs/architecture.md, "Context addressing"; docs/usage.md).
DROP FUNCTION "segmentTail"(TEXT);
CREATE FUNCTION "segmentTail"(parent TEXT)
RETURNS TABLE (
  "segmentId" TEXT, "humanEventsInSegment" INTEGER, "aiEventsInSegment" INTEGER,
  "reasoningEventsInSegment" INTEGER, "toolCallEventsInSegment" INTEGER,
  "toolResultEventsInSegment" INTEGER, "systemEventsInSegment" INTEGER,
  "inputTokensInSegment" INTEGER, "outputTokensInSegment" INTEGER, "cachedTokensInSegment" INTEGER,
  "reasoningTokensInSegment" INTEGER, "costInSegment" DOUBLE PRECISION
)
LANGUAGE sql VOLATILE AS $$
  SELECT p."segmentId", p."humanEventsInSegment", p."aiEventsInSegment", p."reasoningEventsInSegment",
    p."toolCallEventsInSegment", p."toolResultEventsInSegment", p."systemEventsInSegment",
    p."inputTokensInSegment", p."outputTokensInSegment", p."cachedTokensInSegment",
    p."reasoningTokensInSegment", p."costInSegment"
  FROM "Response" p
  WHERE p.id = parent
    AND NOT EXISTS (SELECT 1 FROM "Response" c WHERE c."segmentId" = p."segmentId" AND c.depth = p.depth + 1)
$$;

-- Rows written before this migration: their segment sums and their dialogs' totals from their
-- token counts, and the ledger from them too, unpriced (the price book lives with the server, and
-- the key that wrote them was not recorded), on the day each response was created.
UPDATE "Response" r SET
  "inputTokensInSegment" = s.i, "outputTokensInSegment" = s.o, "reasoningTokensInSegment" = s.rt
FROM (
  SELECT id,
    sum(COALESCE("inputTokens", 0)) OVER w AS i,
    sum(COALESCE("outputTokens", 0)) OVER w AS o,
    sum(COALESCE("reasoningTokens", 0)) OVER w AS rt
  FROM "Response"
  WINDOW w AS (PARTITION BY "segmentId" ORDER BY depth)
) s
WHERE r.id = s.id AND (s.i <> 0 OR s.o <> 0 OR s.rt <> 0);

UPDATE "Dialog" d SET "inputTokens" = t.i, "outputTokens" = t.o, "reasoningTokens" = t.rt
FROM (
  SELECT "dialogId", sum(COALESCE("inputTokens", 0)) AS i, sum(COALESCE("outputTokens", 0)) AS o,
    sum(COALESCE("reasoningTokens", 0)) AS rt
  FROM "Response" GROUP BY "dialogId"
) t
WHERE d.id = t."dialogId" AND (t.i <> 0 OR t.o <> 0 OR t.rt <> 0);

INSERT INTO "UsageDaily" ("tenantId", "apiKeyId", model, day, shard, responses, "inputTokens", "outputTokens",
  "reasoningTokens", "unpricedTokens")
SELECT d."tenantId", '', COALESCE(r.model, ''), r."createdAt"::date, 0, count(*),
  sum(COALESCE(r."inputTokens", 0)), sum(COALESCE(r."outputTokens", 0)), sum(COALESCE(r."reasoningTokens", 0)),
  sum(COALESCE(r."inputTokens", 0) + COALESCE(r."outputTokens", 0))
FROM "Response" r JOIN "Dialog" d ON d.id = r."dialogId"
WHERE r."inputTokens" IS NOT NULL OR r."outputTokens" IS NOT NULL OR r."reasoningTokens" IS NOT NULL
GROUP BY 1, 2, 3, 4, 5;
