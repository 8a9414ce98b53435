// Migrations are applied once, recorded the way Prisma records them, and re-running is a no-op.
import { describe, expect, it } from "vitest";
import { applyMigrations } from "../src/db/migrate.js";
import { database } from "./support/database.js";

describe("applyMigrations", () => {
  it("has applied every migration and does nothing the second time", async () => {
    const again = await applyMigrations(database);
    expect(again.applied).toEqual([]);
    const rows = await database.withSession((s) =>
      s.query<{ migration_name: string; finished_at: Date | null }>(
        `SELECT migration_name, finished_at FROM "_prisma_migrations"`,
      ),
    );
    expect(rows.map((r) => r.migration_name)).toContain("20261122000000_init");
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });
});
