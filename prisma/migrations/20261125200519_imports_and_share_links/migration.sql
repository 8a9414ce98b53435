-- AlterTable
ALTER TABLE "Dialog" ADD COLUMN     "importKey" TEXT;

-- CreateTable
CREATE TABLE "ShareLink" (
    "token" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "dialogId" TEXT NOT NULL,
    "responseId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ShareLink_pkey" PRIMARY KEY ("token")
);

-- CreateIndex
CREATE INDEX "ShareLink_dialogId_idx" ON "ShareLink"("dialogId");

-- CreateIndex
CREATE UNIQUE INDEX "Dialog_tenantId_importKey_key" ON "Dialog"("tenantId", "importKey");

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_dialogId_fkey" FOREIGN KEY ("dialogId") REFERENCES "Dialog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

