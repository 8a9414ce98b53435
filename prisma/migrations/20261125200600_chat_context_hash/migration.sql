-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "chatHash" TEXT;

-- CreateIndex
CREATE INDEX "Response_chatHash_idx" ON "Response"("chatHash");

-- The chat hash of a response (src/formats/chat-context-hash.ts computes the same in the
-- application): its parent's hash (or, for a root, the tenant's seed) extended by one SHA-256 step
-- per message of the response in the Chat Completions normal form. A parent without a hash (still
-- in progress, or stored before this migration) gives none: such a chain is never matched.
CREATE FUNCTION "chatContextHash"(parent TEXT, tenant TEXT, messages TEXT[])
RETURNS TEXT
LANGUAGE plpgsql STABLE AS $$
DECLARE
  h BYTEA;
  m TEXT;
BEGIN
  IF parent IS NULL THEN
    h := sha256(convert_to('dialogql chat context ' || tenant, 'UTF8'));
  ELSE
    SELECT decode("chatHash", 'hex') INTO h FROM "Response" WHERE id = parent;
  END IF;
  IF h IS NULL THEN
    RETURN NULL;
  END IF;
  FOREACH m IN ARRAY messages LOOP
    h := sha256(h || convert_to(m, 'UTF8'));
  END LOOP;
  RETURN encode(h, 'hex');
END
$$;
