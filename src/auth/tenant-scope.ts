// Tenant isolation at the entry points. Every id a caller names (a dialog, a response) is checked
// here once, before any work: an id of another tenant fails exactly like an id that does not
// exist, with the same NotFoundError, so nothing reveals that it exists. Lists filter by
// `tenantId`, and new dialogs are stamped with it; everything reached from an owned dialog or
// response (its events, branches, forks) is the same tenant's by construction.
//
// Which tenant owns a dialog, and which dialog a response belongs to, never change: a tenant's own
// ids are cached here (one cache per store, made with the app: `createTenantScopes(store)`), so a caller that keeps writing to its dialog pays no query for the check.
// The cache is keyed by (tenant, id) and holds only ids the tenant owns, so "another tenant's id"
// and "no such id" both miss it and both run the same query, filtered by the caller's tenant,
// which finds nothing either way: their answers take the same time, not only the same bytes.
import { LRUCache } from "lru-cache";
import { NotFoundError } from "../errors.js";
import type { Store } from "../store/store.js";

// No id of ours is this long; a longer one is not looked up.
const MAX_ID_LENGTH = 100;

const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

export type TenantScopes = ReturnType<typeof createTenantScopes>;
export type TenantScope = ReturnType<TenantScopes["of"]>;

/** The tenant checks of one store, with their cache. */
export function createTenantScopes({ prisma }: Store) {
  const ownedDialogs = new LRUCache<string, true>({ max: 100_000 });
  /** (tenant, response id) → the response's dialog. */
  const ownedResponses = new LRUCache<string, string>({ max: 100_000 });

  /** Records a write this instance just made, so later calls naming its ids need no query. */
  function rememberWrite(write: { dialogId: string; responseId: string | null }, tenantId: string) {
    ownedDialogs.set(keyOf(tenantId, write.dialogId), true);
    if (write.responseId) ownedResponses.set(keyOf(tenantId, write.responseId), write.dialogId);
  }

  async function ownsDialog(tenantId: string, id: string): Promise<boolean> {
    if (id.length > MAX_ID_LENGTH) return false;
    const key = keyOf(tenantId, id);
    if (ownedDialogs.get(key)) return true;
    const dialog = await prisma.dialog.findUnique({ where: { id, tenantId }, select: { id: true } });
    if (dialog) ownedDialogs.set(key, true);
    return Boolean(dialog);
  }

  /** The dialog of a response the tenant owns; undefined for one it does not own or that does not exist. */
  async function dialogOfOwnedResponse(tenantId: string, id: string): Promise<string | undefined> {
    if (id.length > MAX_ID_LENGTH) return undefined;
    const key = keyOf(tenantId, id);
    const cached = ownedResponses.get(key);
    if (cached) return cached;
    const response = await prisma.response.findFirst({
      where: { id, dialog: { tenantId } },
      select: { dialogId: true },
    });
    if (response) ownedResponses.set(key, response.dialogId);
    return response?.dialogId;
  }

  /** The checks for one caller's tenant. */
  const of = (tenantId: string) => ({
    tenantId,
    /** Throws `notFound` (by default NotFoundError.dialog) unless the dialog is this tenant's. */
    async dialog(id: string, notFound: (id: string) => Error = NotFoundError.dialog): Promise<void> {
      if (!(await ownsDialog(tenantId, id))) throw notFound(id);
    },
    /** The response's dialog; throws `notFound` (by default NotFoundError.response) unless it is this tenant's. */
    async response(
      id: string,
      notFound: (id: string) => Error = NotFoundError.response,
    ): Promise<{ dialogId: string }> {
      const dialogId = await dialogOfOwnedResponse(tenantId, id);
      if (!dialogId) throw notFound(id);
      return { dialogId };
    },
    /** An optional id: checked when given. */
    async optionalDialog(id: string | null | undefined, notFound?: (id: string) => Error) {
      if (id != null) await this.dialog(id, notFound);
    },
    async optionalResponse(id: string | null | undefined, notFound?: (id: string) => Error) {
      if (id != null) await this.response(id, notFound);
    },
    /** Records a write made for this tenant, so later calls naming its ids need no query. */
    remember(write: { dialogId: string; responseId: string | null }) {
      rememberWrite(write, tenantId);
    },
  });

  return { of, rememberWrite };
}
