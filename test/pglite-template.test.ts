// A new embedded database starts from the PGlite template (a copy with the migrations applied)
// instead of running initdb, and is the same database either way: every migration recorded,
// newer migrations than the template's applied on top, initdb when there is no usable template.
// About embedded PGlite only, so it runs in the embedded suite.
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { testConfig as config } from "./support/database.js";
import { beginPreparingDataDir } from "../src/db/embedded-data-dir.js";
import { openEmbedded } from "../src/db/embedded-database.js";
import { makeTemplate } from "../src/db/make-pglite-template.js";
import { applyMigrations } from "../src/db/migrate.js";
import { listMigrations } from "../src/db/migration-files.js";
import { findTemplate, PGLITE_VERSION } from "../src/db/pglite-template.js";
import { freePort, startChildServer } from "./support/child-server.js";

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function scratchDir(name: string) {
  const dir = mkdtempSync(path.join(tmpdir(), `dialogql-${name}-`));
  scratch.push(dir);
  return dir;
}

const allNames = async () => (await listMigrations()).map((m) => m.name);

async function recordedMigrations(client: { query<T>(sql: string): Promise<{ rows: T[] }> }) {
  const { rows } = await client.query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`,
  );
  return rows.map((row) => row.migration_name);
}

describe.skipIf(process.env.TEST_DATABASE_URL)("a new embedded database", () => {
  it("starts from the template under `npm start`, answers queries and has every migration", async () => {
    const dataDir = scratchDir("from-template");
    // The test run's global setup made the template for the migrations as they are.
    const server = await startChildServer(await freePort(), { DATABASE_URL: undefined, DATA_DIR: dataDir });
    try {
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `mutation { createDialog(input: { title: "from the template" }) { ... on Dialog { title } } }`,
        }),
      });
      expect(await response.json()).toEqual({ data: { createDialog: { title: "from the template" } } });
      const migrations = await allNames();
      expect(server.output()).toContain(`new database from the PGlite template with ${migrations.length} migrations`);
      expect(server.output()).not.toContain("applied migrations");
    } finally {
      await server.stop();
    }
    const client = await PGlite.create(path.join(dataDir, "pglite"));
    try {
      expect(await recordedMigrations(client)).toEqual(await allNames());
      const { rows } = await client.query<{ title: string }>(`SELECT title FROM "Dialog"`);
      expect(rows).toEqual([{ title: "from the template" }]);
    } finally {
      await client.close();
    }
  });

  it("gets the migrations newer than an older template applied on top of it", async () => {
    const templates = scratchDir("older-templates");
    const migrations = await listMigrations();
    await makeTemplate(templates, migrations.slice(0, -2));

    for (const dataDir of [scratchDir("older-template"), "memory://older-template"]) {
      const prepared = await beginPreparingDataDir(dataDir, templates);
      expect(prepared.template?.manifest.migrations.length).toBe(migrations.length - 2);
      const { database } = await openEmbedded(dataDir, templates);
      try {
        const { applied } = await applyMigrations(database);
        expect(applied).toEqual(migrations.slice(-2).map((m) => m.name));
        const recorded = await database.withSession((s) =>
          s.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" ORDER BY 1`),
        );
        expect(recorded.map((row) => row.migration_name)).toEqual(migrations.map((m) => m.name));
      } finally {
        await database.close();
      }
    }
  });

  it("runs initdb and every migration when there is no template", async () => {
    const noTemplates = path.join(scratchDir("no-templates"), "missing");
    const dataDir = scratchDir("no-template");
    expect((await beginPreparingDataDir(dataDir, noTemplates)).template).toBeUndefined();
    const { database } = await openEmbedded(dataDir, noTemplates);
    try {
      expect((await applyMigrations(database)).applied).toEqual(await allNames());
    } finally {
      await database.close();
    }
  });

  it("opens an existing database as it is, template or not", async () => {
    const dataDir = scratchDir("existing");
    const first = await openEmbedded(dataDir, config.PGLITE_TEMPLATE_DIR);
    await applyMigrations(first.database);
    await first.database.withSession((s) =>
      s.runScript(`INSERT INTO "Dialog" (id, title, "updatedAt") VALUES ('d1', 'kept', now())`),
    );
    await first.database.close();

    expect((await beginPreparingDataDir(dataDir, config.PGLITE_TEMPLATE_DIR)).template).toBeUndefined();
    const again = await openEmbedded(dataDir, config.PGLITE_TEMPLATE_DIR);
    try {
      const rows = await again.database.withSession((s) => s.query(`SELECT title FROM "Dialog"`));
      expect(rows).toEqual([{ title: "kept" }]);
    } finally {
      await again.database.close();
    }
  });
});

describe("choosing a template", () => {
  async function fakeTemplate(
    root: string,
    key: string,
    pglite: string,
    migrations: { name: string; checksum: string }[],
  ) {
    await mkdir(path.join(root, key), { recursive: true });
    await writeFile(path.join(root, key, "manifest.json"), JSON.stringify({ pglite, migrations }));
  }

  it("takes the one with the most migrations, all of them unchanged, made by this PGlite", async () => {
    const root = scratchDir("choose");
    const current = (await listMigrations()).map(({ name, checksum }) => ({ name, checksum }));
    await fakeTemplate(root, "older", PGLITE_VERSION, current.slice(0, 2));
    await fakeTemplate(root, "newer", PGLITE_VERSION, current.slice(0, 4));
    await fakeTemplate(root, "edited", PGLITE_VERSION, [...current.slice(0, 4), { ...current[4]!, checksum: "0" }]);
    await fakeTemplate(root, "other-pglite", "0.0.1", current);
    await fakeTemplate(root, "removed-migration", PGLITE_VERSION, [
      ...current,
      { name: "29990101_gone", checksum: "1" },
    ]);
    expect((await findTemplate(root))?.dir).toBe(path.join(root, "newer"));
  });

  it("finds none in a missing or empty directory", async () => {
    expect(await findTemplate(path.join(scratchDir("none"), "missing"))).toBeUndefined();
    expect(await findTemplate(scratchDir("empty"))).toBeUndefined();
  });
});
