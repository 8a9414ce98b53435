-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "inFlightAt" TIMESTAMP(3),
ADD COLUMN     "inFlightPart" INTEGER,
ADD COLUMN     "inFlightText" TEXT,
ADD COLUMN     "inFlightType" "HistoryEventType";

-- CreateIndex
CREATE INDEX "Response_status_inFlightAt_idx" ON "Response"("status", "inFlightAt");

