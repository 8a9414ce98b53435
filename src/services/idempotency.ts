// idempotencyKey: a retry of createResponse with the same key and the same request gets the
// response the first call stored; the same key with a different request is a ConflictError.
import { createHash } from "node:crypto";
import stringify from "safe-stable-stringify";
import { ConflictError } from "../errors.js";
import type { CreateResponseInput, WriteResult } from "./responses.js";
import type { Tx } from "./transaction.js";

export function hashRequest(input: CreateResponseInput) {
  const { idempotencyKey: _key, ...request } = input;
  return createHash("sha256")
    .update(stringify(request) ?? "")
    .digest("hex");
}

export async function findIdempotentResult(db: Tx, key: string, requestHash: string): Promise<WriteResult | null> {
  const earlier = await db.response.findUnique({
    where: { idempotencyKey: key },
    select: { id: true, dialogId: true, requestHash: true, events: { select: { seq: true }, orderBy: { seq: "asc" } } },
  });
  if (!earlier) return null;
  if (earlier.requestHash !== requestHash) {
    throw new ConflictError(`idempotencyKey ${key} was already used for a different request`);
  }
  const seqs = earlier.events.map((e) => e.seq);
  const last = seqs.at(-1) ?? 0;
  return { dialogId: earlier.dialogId, responseId: earlier.id, previousSeq: (seqs[0] ?? 1) - 1, seq: last };
}
