// Runs before every test file, in its worker: gives the file a database of its own, with the
// migrations applied, and the store and configuration its apps are built from. TEST_DATABASE_URL
// set: a new database on that PostgreSQL server, dropped afterwards. Unset: an in-memory PGlite,
// loaded from the PGlite template (kept current by the global setup,
// test/support/pglite-template.ts), so it holds the migrations already.
//
// Nothing reads the environment on import: a test that wants other settings builds its app (or
// store view) from `configWith({ RETENTION: "2s" })` in the same process.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll } from "vitest";
import { type Config, loadConfig } from "../../src/config.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { openStore, type Store } from "../../src/store/store.js";

const serverUrl = process.env.TEST_DATABASE_URL;
let dropDatabase: (() => Promise<void>) | undefined;
const databaseSettings = { DATA_DIR: "memory://", DATABASE_URL: "" };

if (serverUrl) {
  const name = `dialogql_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  databaseSettings.DATABASE_URL = url.toString();
  dropDatabase = async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
}

// Processes a test starts (`npm run keys`, a server in a child process) read their environment as
// any process does: they get this file's database there. The app in this process does not read it.
if (databaseSettings.DATABASE_URL) process.env.DATABASE_URL = databaseSettings.DATABASE_URL;
else delete process.env.DATABASE_URL;
process.env.DATA_DIR = databaseSettings.DATA_DIR;

/** The process's environment with this file's database, and `overrides` (variables as text). */
export function configWith(overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...process.env, ...databaseSettings, ...overrides });
}

/** The configuration every test app starts from. */
export const testConfig: Config = configWith();

/** This file's store; apps built with other settings share it (see `storeWith`). */
export const store: Store = await openStore(testConfig);
export const { prisma, database } = store;
await applyMigrations(database);

/** The same database seen with other store settings (retention, write limits), closed with it. */
export const storeWith = (settings: Partial<Pick<Store, "retentionMs" | "writeLimits">>): Store => ({
  ...store,
  ...settings,
});

afterAll(async () => {
  await store.close();
  await dropDatabase?.();
});
