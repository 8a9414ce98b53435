// The retention window: a dialog nobody has written to for RETENTION is expired, and
// the store refuses writes to it even before the sweeper (src/services/retention.ts) deletes it.
// `retention` is the store's (`store.retentionMs`): milliseconds, or null to keep dialogs forever.
import { NotFoundError } from "../errors.js";

export const expiresAt = (updatedAt: Date, retention: number | null) =>
  retention == null ? null : new Date(updatedAt.getTime() + retention);

export const isExpired = (updatedAt: Date, now: Date, retention: number | null) =>
  retention != null && updatedAt.getTime() + retention <= now.getTime();

/** The `updatedAt` at or before which a dialog is expired at `now` (UTC ISO), or null without retention. */
export const expiryCutoff = (now: Date, retention: number | null) =>
  retention == null ? null : new Date(now.getTime() - retention).toISOString();

/** A write chained to a response that is not there: say it may have expired, when it could have. */
export const chainTargetNotFound = (responseId: string, retention: number | null) =>
  new NotFoundError(
    `Response ${responseId} not found (it may have ${retention == null ? "" : "expired or "}been deleted)`,
  );

export const responseExpired = (responseId: string) =>
  new NotFoundError(`Response ${responseId} not found (it has expired)`);

export const dialogExpired = (dialogId: string) => new NotFoundError(`Dialog ${dialogId} not found (it has expired)`);
