// Root lookups by id (`dialog(id:)`, `response(id:)`) start most reads. When Pothos's `query` for
// the selection needs only the row's own columns, which is the usual case, the row is read with
// one statement at the driver; Prisma's handling of even a primary-key lookup costs more CPU than
// the lookup itself. Anything that needs relations loaded goes through Prisma as before.
import type { Store } from "../store/store.js";
import type { Dialog, Response } from "../generated/prisma/client.js";

/** What Pothos's `query` argument holds: the Prisma selection the GraphQL selection needs. */
export interface PrismaQuery {
  select?: unknown;
  include?: Record<string, unknown>;
}

/** True when `query` asks Prisma for the model's own columns only. */
export const needsOwnColumnsOnly = (query: PrismaQuery) =>
  query.select === undefined && Object.keys(query.include ?? {}).length === 0;

export async function dialogRow({ database }: Store, id: string, tenantId: string) {
  const [row] = await database.query<Dialog>(`SELECT * FROM "Dialog" WHERE id = $1 AND "tenantId" = $2`, [
    id,
    tenantId,
  ]);
  return row ?? null;
}

export async function responseRow({ database }: Store, id: string, tenantId: string) {
  const [row] = await database.query<Response>(
    `SELECT r.* FROM "Response" r JOIN "Dialog" d ON d.id = r."dialogId" WHERE r.id = $1 AND d."tenantId" = $2`,
    [id, tenantId],
  );
  return row ?? null;
}
