// The migrations in prisma/migrations, in the order they apply, with the checksum Prisma records
// for each (sha256 of migration.sql). Read by the migrator and by the PGlite template, which is
// usable only while the migrations it holds are unchanged.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}
