// Which of a tenant's dialogs a list shows, and in what order: the same filters as search, applied
// to dialogs (a dialog matches when some response of it has the model, when its head has the
// status, when it has an event of the type).
import type { Prisma } from "../generated/prisma/client.js";
import type { SearchFilter } from "./search.js";

export type DialogOrder = "NEWEST" | "OLDEST" | "RECENTLY_UPDATED";

export function dialogWhere(tenantId: string, filter?: SearchFilter | null): Prisma.DialogWhereInput {
  const f = filter ?? {};
  const and: Prisma.DialogWhereInput[] = [{ tenantId }];
  if (f.dialogId) and.push({ id: f.dialogId });
  if (f.models?.length) and.push({ responses: { some: { model: { in: [...f.models] } } } });
  if (f.statuses?.length) and.push({ head: { status: { in: [...f.statuses] } } });
  if (f.types?.length) and.push({ events: { some: { type: { in: [...f.types] } } } });
  if (f.createdAfter) and.push({ createdAt: { gte: f.createdAfter } });
  if (f.createdBefore) and.push({ createdAt: { lt: f.createdBefore } });
  // Top-level keys must be equal: Prisma has no jsonb containment, and this is what list filters need.
  for (const [key, value] of Object.entries(f.metadata ?? {})) {
    and.push({ metadata: { path: [key], equals: value as Prisma.InputJsonValue } });
  }
  return { AND: and };
}

// ULIDs sort by creation time, so the primary key is also the age order.
export function dialogOrderBy(order?: DialogOrder | null): Prisma.DialogOrderByWithRelationInput[] {
  switch (order ?? "NEWEST") {
    case "NEWEST":
      return [{ id: "desc" }];
    case "OLDEST":
      return [{ id: "asc" }];
    case "RECENTLY_UPDATED":
      return [{ updatedAt: "desc" }, { id: "desc" }];
  }
}
