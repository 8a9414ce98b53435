// API keys: random secrets that identify a tenant. A key is "dq_" + 43 characters of base64url
// (32 random bytes); only its sha256 is stored, so a database dump reveals no usable key. The
// first characters are kept as a `prefix` to recognise a key in listings.
import { createHash, randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";
import type { Store } from "../store/store.js";

const ulid = monotonicFactory();
const KEY_PREFIX = "dq_";
const SHOWN_PREFIX_LENGTH = 10;

/** Tenant names are chosen by operators; kept to characters that never need escaping. */
export const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** Whether a presented string has the shape of one of our keys (cheap, before any hashing). */
export const looksLikeKey = (key: string) => /^dq_[A-Za-z0-9_-]{43}$/.test(key);

export interface ApiKeyInfo {
  id: string;
  tenantId: string;
  name: string | null;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

const publicFields = { id: true, tenantId: true, name: true, prefix: true, createdAt: true, revokedAt: true } as const;

/** Creates a key for `tenantId`; the returned `key` is the only time the secret exists in clear. */
export async function createApiKey(
  { prisma }: Store,
  tenantId: string,
  name?: string | null,
  /** An admin key may manage its tenant's budgets through GraphQL. */
  admin = false,
): Promise<ApiKeyInfo & { key: string }> {
  if (!TENANT_PATTERN.test(tenantId)) {
    throw new Error(
      `tenant "${tenantId}" must be 1-64 letters, digits, "_", "." or "-", starting with a letter or digit`,
    );
  }
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  const stored = await prisma.apiKey.create({
    data: {
      id: `key_${ulid()}`,
      tenantId,
      name: name ?? null,
      admin,
      prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
      hash: hashKey(key),
    },
    select: publicFields,
  });
  return { ...stored, key };
}

export function listApiKeys({ prisma }: Store, tenantId?: string): Promise<ApiKeyInfo[]> {
  return prisma.apiKey.findMany({ where: tenantId ? { tenantId } : {}, orderBy: { id: "asc" }, select: publicFields });
}

/** Revokes a key by id or by its shown prefix; returns it, or null when nothing matched. */
export async function revokeApiKey({ prisma }: Store, idOrPrefix: string): Promise<ApiKeyInfo | null> {
  const matches = await prisma.apiKey.findMany({
    where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }] },
    select: publicFields,
  });
  if (matches.length > 1) throw new Error(`"${idOrPrefix}" matches ${matches.length} keys; revoke by id`);
  const [match] = matches;
  if (!match) return null;
  if (match.revokedAt) return match;
  // The database's clock (in UTC, as Prisma stores times), so that instances polling for
  // revocations compare like with like.
  await prisma.$executeRaw`
    UPDATE "ApiKey" SET "revokedAt" = now() AT TIME ZONE 'UTC' WHERE id = ${match.id} AND "revokedAt" IS NULL`;
  return prisma.apiKey.findUniqueOrThrow({ where: { id: match.id }, select: publicFields });
}

/** The active key with this hash, if any: the one query authentication makes on a cache miss. */
export function findActiveKey({ prisma }: Store, hash: string) {
  return prisma.apiKey.findFirst({
    where: { hash, revokedAt: null },
    select: { id: true, tenantId: true, admin: true },
  });
}

export async function activeKeyExists({ prisma }: Store) {
  return (await prisma.apiKey.count({ where: { revokedAt: null }, take: 1 })) > 0;
}

/** Keys revoked since `since` (by the database's clock), and the database's time now. */
export async function revokedSince({ prisma }: Store, since: Date | null) {
  const rows = await prisma.$queryRaw<{ id: string | null; now: Date }[]>`
    SELECT k.id, t.now FROM (SELECT now() AT TIME ZONE 'UTC' AS now) AS t
    LEFT JOIN "ApiKey" k ON k."revokedAt" >= ${since ?? new Date(0)}::timestamp
    ORDER BY k.id`;
  return { ids: rows.flatMap((row) => (row.id ? [row.id] : [])), now: new Date(rows[0]?.now ?? Date.now()) };
}
