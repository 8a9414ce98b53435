// Makes the PGlite template new embedded databases start from (see src/db/pglite-template.ts):
// a PGlite data directory with the migrations applied, closed cleanly, plus its dumpDataDir()
// tarball. Run by `npm install` (src/db/make-template-cli.ts) and by the test run's global setup.
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations } from "./migrate.js";
import { listMigrations, type MigrationFile } from "./migration-files.js";
import { pgliteDatabase } from "./pglite-database.js";
import { PGLITE_VERSION, type Template, type TemplateManifest } from "./pglite-template.js";

// A staging directory this old belongs to a maker that died; younger ones may still be in use.
const ABANDONED_STAGING_MS = 10 * 60_000;

/**
 * Makes the template holding `migrations` (all of prisma/migrations by default) unless it exists,
 * then removes templates for other keys. Safe to run from several processes at once.
 */
export async function makeTemplate(root: string, migrations?: MigrationFile[]): Promise<Template> {
  const toApply = migrations ?? (await listMigrations());
  const manifest: TemplateManifest = {
    pglite: PGLITE_VERSION,
    migrations: toApply.map(({ name, checksum }) => ({ name, checksum })),
  };
  const key = createHash("sha256").update(JSON.stringify(manifest)).digest("hex").slice(0, 16);
  const dir = path.join(root, key);
  if (!existsSync(path.join(dir, "manifest.json"))) {
    // Built aside and renamed into place, so a reader never sees half a template.
    const staging = path.join(root, `.staging-${randomUUID()}`);
    await mkdir(staging, { recursive: true });
    try {
      const client = await PGlite.create(path.join(staging, "data"));
      try {
        await applyMigrations(pgliteDatabase(client, "template"), toApply);
        const tarball = await client.dumpDataDir("none");
        await writeFile(path.join(staging, "data.tar"), Buffer.from(await tarball.arrayBuffer()));
      } finally {
        await client.close();
      }
      await writeFile(path.join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      await rename(staging, dir).catch((error) => {
        // Another process made the same template meanwhile: theirs is as good.
        if (!existsSync(path.join(dir, "manifest.json"))) throw error;
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  await removeOtherTemplates(root, key);
  return { dir, manifest };
}

async function removeOtherTemplates(root: string, keep: string) {
  for (const entry of await readdir(root)) {
    if (entry === keep) continue;
    const entryPath = path.join(root, entry);
    if (entry.startsWith(".staging-")) {
      const modified = await stat(entryPath).catch(() => undefined);
      if (!modified || Date.now() - modified.mtimeMs < ABANDONED_STAGING_MS) continue;
    }
    await rm(entryPath, { recursive: true, force: true });
  }
}
