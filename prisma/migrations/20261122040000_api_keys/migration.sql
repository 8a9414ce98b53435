-- API keys and tenants (issue 6).
-- Keys are stored as sha256 hashes; revokedAt marks a revoked key.
-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE INDEX "ApiKey_tenantId_idx" ON "ApiKey"("tenantId");

-- CreateIndex
CREATE INDEX "ApiKey_revokedAt_idx" ON "ApiKey"("revokedAt");


-- Idempotency keys are per tenant: two tenants may use the same key without meeting. A stored key
-- is "<tenantId>/<key>" (the unique index stays as it is); keys stored before tenants existed
-- belong to their dialog's tenant.
UPDATE "Response" r SET "idempotencyKey" = d."tenantId" || '/' || r."idempotencyKey"
FROM "Dialog" d
WHERE d.id = r."dialogId" AND r."idempotencyKey" IS NOT NULL;
