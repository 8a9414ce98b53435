// A new embedded database starts as a copy of a template that already holds the migrations:
// PGlite's initdb (in WASM) takes 3-4 s on a fresh data directory, restoring a copy well under
// one. `npm install` makes the template (src/db/make-pglite-template.ts), and so does the test run.
//
// Templates live under PGLITE_TEMPLATE_DIR, one directory per (PGlite version, migrations) key:
//   <key>/data/          a closed PGlite data directory, copied for a DATA_DIR on disk
//   <key>/data.tar       the same as PGlite's dumpDataDir() tarball, loaded for memory://
//   <key>/manifest.json  which PGlite version and which migrations (name, checksum) it holds
// A template is usable while its PGlite version is the running one and every migration it holds
// is still in prisma/migrations unchanged; the migrator then applies whatever is newer. With none
// usable (never made, or migrations edited), PGlite runs initdb as before.
// This module only reads templates, and loads nothing heavy: a start uses it before anything else.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { listMigrations, type MigrationFile } from "./migration-files.js";

export interface TemplateManifest {
  pglite: string;
  migrations: { name: string; checksum: string }[];
}

export interface Template {
  dir: string;
  manifest: TemplateManifest;
}

export const PGLITE_VERSION: string = JSON.parse(
  readFileSync(path.join(createRequire(import.meta.url).resolve("@electric-sql/pglite"), "../../package.json"), "utf8"),
).version;

/** The template with the most migrations that a new database may start from, if any. */
export async function findTemplate(root: string, migrations?: MigrationFile[]): Promise<Template | undefined> {
  const current = new Map((migrations ?? (await listMigrations())).map((m) => [m.name, m.checksum]));
  let best: Template | undefined;
  for (const key of await readdir(root).catch(() => [])) {
    if (key.startsWith(".")) continue;
    const dir = path.join(root, key);
    const manifest = await readFile(path.join(dir, "manifest.json"), "utf8")
      .then((text) => JSON.parse(text) as TemplateManifest)
      .catch(() => undefined);
    if (!manifest || manifest.pglite !== PGLITE_VERSION) continue;
    if (!manifest.migrations.every((m) => current.get(m.name) === m.checksum)) continue;
    if (!best || manifest.migrations.length > best.manifest.migrations.length) best = { dir, manifest };
  }
  return best;
}

/** Copies the template's data directory to `location`, which must not exist yet or be empty. */
export async function copyTemplateTo(template: Template, location: string): Promise<void> {
  // Copied aside and renamed into place: a copy cut short never looks like a database.
  const staging = `${location}.restoring-${randomUUID()}`;
  // On a fresh clone DATA_DIR (./data) does not exist yet: the copy goes beside where it will live.
  await mkdir(path.dirname(location), { recursive: true });
  try {
    await copyTree(path.join(template.dir, "data"), staging);
    // rename() replaces an empty directory but not a missing parent or a non-empty one.
    await rmdir(location).catch((error) => {
      if (error.code !== "ENOENT") throw error;
    });
    await rename(staging, location);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

// About a thousand small files: creating them is most of the cost (fs.cp took twice as long), and
// doing it on libuv's threads leaves the main thread free to load the server's modules meanwhile.
async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to);
  const entries = await readdir(from, { withFileTypes: true });
  await Promise.all(
    entries.map((entry) => {
      const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
      return entry.isDirectory() ? copyTree(source, target) : copyFile(source, target);
    }),
  );
}

/** The template's data as a tarball, for PGlite's `loadDataDir` (an in-memory database). */
export async function templateTarball(template: Template): Promise<Blob> {
  return new Blob([await readFile(path.join(template.dir, "data.tar"))]);
}
