-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "finishedAtSeq" INTEGER;

-- CreateIndex
CREATE INDEX "Response_dialogId_finishedAtSeq_idx" ON "Response"("dialogId", "finishedAtSeq");

