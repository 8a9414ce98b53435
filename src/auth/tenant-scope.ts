// Tenant isolation at the entry points. Every id a caller names (a dialog, a response) is checked
// here once, before any work: an id of another tenant fails exactly like an id that does not
// exist, with the same NotFoundError, so nothing reveals that it exists. Lists filter by
// `tenantId`, and new dialogs are stamped with it; everything reached from an owned dialog or
// response (its events, branches, forks) is the same tenant's by construction.
//
// Which tenant owns a dialog, and which dialog a response belongs to, never change: they are
// cached here, so a caller that keeps writing to its dialog pays no query for the check.
import { LRUCache } from "lru-cache";
import { prisma } from "../db/prisma.js";
import { NotFoundError } from "../errors.js";

const dialogTenants = new LRUCache<string, string>({ max: 100_000 });
const responseOwners = new LRUCache<string, { dialogId: string; tenantId: string }>({ max: 100_000 });

// No id of ours is this long; a longer one is not looked up.
const MAX_ID_LENGTH = 100;

/** Records a write this instance just made, so later calls naming its ids need no query. */
export function rememberWrite(write: { dialogId: string; responseId: string | null }, tenantId: string) {
  dialogTenants.set(write.dialogId, tenantId);
  if (write.responseId) responseOwners.set(write.responseId, { dialogId: write.dialogId, tenantId });
}

async function tenantOfDialog(id: string): Promise<string | undefined> {
  if (id.length > MAX_ID_LENGTH) return undefined;
  const cached = dialogTenants.get(id);
  if (cached) return cached;
  const dialog = await prisma.dialog.findUnique({ where: { id }, select: { tenantId: true } });
  if (dialog) dialogTenants.set(id, dialog.tenantId);
  return dialog?.tenantId;
}

async function ownerOfResponse(id: string) {
  if (id.length > MAX_ID_LENGTH) return undefined;
  const cached = responseOwners.get(id);
  if (cached) return cached;
  const response = await prisma.response.findUnique({
    where: { id },
    select: { dialogId: true, dialog: { select: { tenantId: true } } },
  });
  if (!response) return undefined;
  const owner = { dialogId: response.dialogId, tenantId: response.dialog.tenantId };
  responseOwners.set(id, owner);
  return owner;
}

export type TenantScope = ReturnType<typeof tenantScope>;

export function tenantScope(tenantId: string) {
  return {
    tenantId,
    /** Throws `notFound` (by default NotFoundError.dialog) unless the dialog is this tenant's. */
    async dialog(id: string, notFound: (id: string) => Error = NotFoundError.dialog): Promise<void> {
      if ((await tenantOfDialog(id)) !== tenantId) throw notFound(id);
    },
    /** The response's dialog; throws `notFound` (by default NotFoundError.response) unless it is this tenant's. */
    async response(id: string, notFound: (id: string) => Error = NotFoundError.response): Promise<{ dialogId: string }> {
      const owner = await ownerOfResponse(id);
      if (owner?.tenantId !== tenantId) throw notFound(id);
      return { dialogId: owner.dialogId };
    },
    /** An optional id: checked when given. */
    async optionalDialog(id: string | null | undefined, notFound?: (id: string) => Error) {
      if (id != null) await this.dialog(id, notFound);
    },
    async optionalResponse(id: string | null | undefined, notFound?: (id: string) => Error) {
      if (id != null) await this.response(id, notFound);
    },
  };
}
