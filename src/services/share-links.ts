// Read-only links to one dialog (or one branch of it). A link is a random token: whoever holds it
// reads that history — nothing else of the tenant — without an API key, live, until the link is
// revoked or expires. The token is the only way in, so it is long (32 random bytes) and a link that
// is unknown, revoked or expired looks the same from outside: not found.
import { randomBytes } from "node:crypto";
import { NotFoundError, ValidationError } from "../errors.js";
import type { ShareLink } from "../generated/prisma/client.js";
import type { Store } from "../store/store.js";

export interface CreateShareLinkInput {
  dialogId: string;
  /** Share the branch ending here; null shares the dialog's head, following it as it grows. */
  responseId?: string | null;
  expiresAt?: Date | null;
}

export function newShareToken() {
  return randomBytes(32).toString("base64url");
}

/** A new link for `tenantId`'s dialog (the caller has checked that the dialog is the tenant's). */
export async function createShareLink(store: Store, tenantId: string, input: CreateShareLinkInput, now = new Date()) {
  if (input.expiresAt && input.expiresAt <= now) throw ValidationError.at(["expiresAt"], "must be in the future");
  if (input.responseId) {
    const response = await store.prisma.response.findUnique({
      where: { id: input.responseId },
      select: { dialogId: true },
    });
    if (response?.dialogId !== input.dialogId) throw NotFoundError.response(input.responseId);
  }
  return store.prisma.shareLink.create({
    data: {
      token: newShareToken(),
      tenantId,
      dialogId: input.dialogId,
      responseId: input.responseId ?? null,
      expiresAt: input.expiresAt ?? null,
    },
  });
}

/** Revokes one of `tenantId`'s links; another tenant's token is not found. */
export async function revokeShareLink(store: Store, tenantId: string, token: string, now = new Date()) {
  const link = await store.prisma.shareLink.findFirst({ where: { token, tenantId } });
  if (!link) throw new NotFoundError(`Share link not found`);
  if (link.revokedAt) return link;
  return store.prisma.shareLink.update({ where: { token }, data: { revokedAt: now } });
}

export const isLive = (link: Pick<ShareLink, "revokedAt" | "expiresAt">, now = new Date()) =>
  !link.revokedAt && (!link.expiresAt || link.expiresAt > now);

/** The link behind a token while it is live; null for an unknown, revoked or expired one. */
export async function openShareLink(store: Store, token: string, now = new Date()): Promise<ShareLink | null> {
  if (!token || token.length > 100) return null;
  const link = await store.prisma.shareLink.findUnique({ where: { token } });
  return link && isLive(link, now) ? link : null;
}
