-- Conversation formats and retention (issue 4).
-- Response.expiresAt is dropped: retention is per dialog (updatedAt + RETENTION), so expiry is
-- computed when read instead of being rewritten on every response of a dialog at each write.

-- AlterTable
ALTER TABLE "Response" DROP COLUMN "expiresAt";

-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "providerFields" JSONB;

-- CreateIndex
CREATE INDEX "Dialog_updatedAt_idx" ON "Dialog"("updatedAt");

