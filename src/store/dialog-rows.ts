// Dialog-level writes that touch no history: creating an empty dialog, changing its title or
// metadata, deleting it (its responses and events go with it by cascade), and the retention
// sweep. Changing the history goes through src/store/dialog-write.ts.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { Prisma } from "../generated/prisma/client.js";
import { expiryCutoff } from "./retention-window.js";
import { run } from "./sql.js";
import type { Store } from "./store.js";

export async function insertDialog(
  store: Store,
  dialog: { id: string; tenantId: string; title: string | null; metadata?: object },
  now = new Date(),
) {
  const at = now.toISOString();
  await run(
    Prisma.sql`INSERT INTO "Dialog" (id, "tenantId", title, metadata, "createdAt", "updatedAt")
      VALUES (${dialog.id}, ${dialog.tenantId}, ${dialog.title}, ${JSON.stringify(dialog.metadata ?? {})}::jsonb,
        ${at}::timestamp, ${at}::timestamp)`,
    store.database,
  );
  return { id: dialog.id };
}

/**
 * Sets the fields given (`title: null` clears the title; an absent field is left alone) and moves
 * updatedAt; "missing" or "expired" when there is no live dialog to change.
 */
export async function updateDialogRow(
  store: Store,
  id: string,
  fields: { title?: string | null; metadata?: object },
  now = new Date(),
) {
  const sets: Prisma.Sql[] = [Prisma.sql`"updatedAt" = ${now.toISOString()}::timestamp`];
  if (fields.title !== undefined) sets.push(Prisma.sql`title = ${fields.title}`);
  if (fields.metadata !== undefined) sets.push(Prisma.sql`metadata = ${JSON.stringify(fields.metadata)}::jsonb`);
  const cutoff = expiryCutoff(now, store.retentionMs);
  const [row] = await run<{ updated: boolean }>(
    Prisma.sql`WITH u AS (
      UPDATE "Dialog" SET ${Prisma.join(sets)}
      WHERE id = ${id} ${cutoff == null ? Prisma.empty : Prisma.sql`AND "updatedAt" > ${cutoff}::timestamp`}
      RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM u) AS updated, EXISTS (SELECT 1 FROM "Dialog" WHERE id = ${id}) AS exists`,
    store.database,
  );
  const { updated, exists } = row as unknown as { updated: boolean; exists: boolean };
  return updated ? "updated" : exists ? "expired" : "missing";
}

/** Deletes the dialog with its responses and events; false when there was none. */
export async function deleteDialogRow(store: Store, id: string) {
  const rows = await run<{ id: string }>(
    Prisma.sql`DELETE FROM "Dialog" WHERE id = ${id} RETURNING id`,
    store.database,
  );
  return rows.length > 0;
}

/**
 * Deletes every dialog expired at `now`, batch by batch, each batch one short statement that skips
 * dialogs a writer holds; returns their ids.
 */
export async function deleteExpiredDialogs(store: Store, now: Date, retention: number, batchSize: number) {
  const deleted: string[] = [];
  const cutoff = expiryCutoff(now, retention)!;
  for (;;) {
    const batch = await run<{ id: string }>(
      Prisma.sql`
      DELETE FROM "Dialog" WHERE id IN (
        SELECT id FROM "Dialog" WHERE "updatedAt" <= ${cutoff}::timestamp
        ORDER BY "updatedAt" LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
      RETURNING id`,
      store.database,
    );
    deleted.push(...batch.map((row) => row.id));
    if (batch.length < batchSize) return deleted;
    // Let requests waiting on the event loop (and, embedded, on the one PGlite connection) go first.
    await yieldToEventLoop();
  }
}
