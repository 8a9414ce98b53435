// idempotencyKey: a retry of createResponse with the same key and the same request gets the
// response the first call stored; the same key with a different request is a ConflictError.
import { createHash } from "node:crypto";
import stringify from "safe-stable-stringify";
import type { PrismaClient } from "../generated/prisma/client.js";
import { ConflictError } from "../errors.js";
import type { CreateResponseInput, WriteResult } from "./write-result.js";

/** The longest key taken, by GraphQL (src/schema/input-limits.ts) and by /v1's Idempotency-Key header. */
export const MAX_IDEMPOTENCY_KEY_CHARS = 200;

/**
 * Keys are per tenant, stored as "<tenantId>/<key>" (see the api_keys migration): two tenants may
 * use the same key without meeting, and one never learns that the other did.
 */
export const storedIdempotencyKey = (tenantId: string, key: string) => `${tenantId}/${key}`;

export interface IdempotencyKey {
  /** As the client gave it. */
  given: string;
  /** As stored: storedIdempotencyKey. */
  stored: string;
  /** What the client calls it, for errors (idempotencyKey when not given). */
  name?: string;
}

export function hashRequest(input: CreateResponseInput) {
  if (input.requestHash) return input.requestHash;
  const { idempotencyKey: _key, requestHash: _hash, ...request } = input;
  return createHash("sha256")
    .update(stringify(request) ?? "")
    .digest("hex");
}

export async function findIdempotentResult(
  db: PrismaClient,
  key: IdempotencyKey,
  requestHash: string,
): Promise<WriteResult | null> {
  const earlier = await db.response.findUnique({
    where: { idempotencyKey: key.stored },
    select: {
      id: true,
      dialogId: true,
      status: true,
      requestHash: true,
      events: { select: { seq: true }, orderBy: { seq: "asc" } },
    },
  });
  if (!earlier) return null;
  if (earlier.requestHash !== requestHash) {
    throw new ConflictError(`${key.name ?? "idempotencyKey"} ${key.given} was already used for a different request`);
  }
  // The first write's events are one contiguous run of seqs; events appended later may follow
  // other responses' events, and a delta must never claim a range it does not wholly cover.
  const seqs = earlier.events.map((e) => e.seq);
  const first = seqs[0] ?? 0;
  let last = first;
  while (seqs[last - first + 1] === last + 1) last++;
  return {
    dialogId: earlier.dialogId,
    responseId: earlier.id,
    previousSeq: Math.max(first - 1, 0),
    seq: last,
    status: earlier.status,
  };
}
