-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "ResponseStatus" AS ENUM ('IN_PROGRESS', 'COMPLETED', 'FAILED', 'INCOMPLETE', 'CANCELLED');

-- CreateEnum
CREATE TYPE "HistoryEventType" AS ENUM ('HUMAN', 'AI', 'REASONING', 'TOOL_CALL', 'TOOL_RESULT', 'SYSTEM');

-- CreateEnum
CREATE TYPE "EventPhase" AS ENUM ('INPUT', 'OUTPUT');

-- CreateTable
CREATE TABLE "Dialog" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL DEFAULT 'default',
    "title" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "headId" TEXT,
    "forkedFromId" TEXT,

    CONSTRAINT "Dialog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Response" (
    "id" TEXT NOT NULL,
    "dialogId" TEXT NOT NULL,
    "previousResponseId" TEXT,
    "depth" INTEGER NOT NULL,
    "model" TEXT,
    "status" "ResponseStatus" NOT NULL,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "reasoningTokens" INTEGER,
    "totalTokens" INTEGER,
    "error" JSONB,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "idempotencyKey" TEXT,
    "requestHash" TEXT,

    CONSTRAINT "Response_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" TEXT NOT NULL,
    "dialogId" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "phase" "EventPhase" NOT NULL,
    "type" "HistoryEventType" NOT NULL,
    "content" TEXT,
    "parts" JSONB,
    "modelName" TEXT,
    "callId" TEXT,
    "toolName" TEXT,
    "args" JSONB,
    "isError" BOOLEAN,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Dialog_headId_key" ON "Dialog"("headId");

-- CreateIndex
CREATE INDEX "Dialog_tenantId_id_idx" ON "Dialog"("tenantId", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Response_idempotencyKey_key" ON "Response"("idempotencyKey");

-- CreateIndex
CREATE INDEX "Response_dialogId_createdAt_idx" ON "Response"("dialogId", "createdAt");

-- CreateIndex
CREATE INDEX "Response_previousResponseId_idx" ON "Response"("previousResponseId");

-- CreateIndex
CREATE INDEX "Event_responseId_seq_idx" ON "Event"("responseId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "Event_dialogId_seq_key" ON "Event"("dialogId", "seq");

-- AddForeignKey
ALTER TABLE "Dialog" ADD CONSTRAINT "Dialog_headId_fkey" FOREIGN KEY ("headId") REFERENCES "Response"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Dialog" ADD CONSTRAINT "Dialog_forkedFromId_fkey" FOREIGN KEY ("forkedFromId") REFERENCES "Response"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_dialogId_fkey" FOREIGN KEY ("dialogId") REFERENCES "Dialog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_previousResponseId_fkey" FOREIGN KEY ("previousResponseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_dialogId_fkey" FOREIGN KEY ("dialogId") REFERENCES "Dialog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

