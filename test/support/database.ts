// Runs before every test file, in its worker. The worker keeps one database for all its files
// (vitest's `isolate: false`: opening a database and loading the app's modules once per worker,
// not once per file, is most of what the suite saved), emptied before each file, so every file
// starts from a database holding only the migrations. TEST_DATABASE_URL set: a database of the
// worker's own on that PostgreSQL server, dropped when the run ends (test/support/test-run.ts).
// Unset: an in-memory PGlite loaded from the PGlite template (kept current by the global setup,
// test/support/pglite-template.ts), so it holds the migrations already.
//
// Nothing reads the environment on import: a test that wants other settings builds its app (or
// store view) from `configWith({ RETENTION: "2s" })` in the same process.
import pg from "pg";
import { afterAll, inject } from "vitest";
import { type Config, loadConfig } from "../../src/config.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { openStore, type Store } from "../../src/store/store.js";
import { endFile } from "./file-scope.js";

interface Worker {
  store: Store;
  settings: { DATA_DIR: string; DATABASE_URL: string };
}

const worker = ((globalThis as { dialogqlTestWorker?: Promise<Worker> }).dialogqlTestWorker ??= openWorker());

async function openWorker(): Promise<Worker> {
  const settings = { DATA_DIR: "memory://", DATABASE_URL: "" };
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `${inject("testDatabasePrefix")}_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    settings.DATABASE_URL = url.toString();
  }
  const store = await openStore(loadConfig({ ...process.env, ...settings }));
  await applyMigrations(store.database);
  return { store, settings };
}

const { store: workerStore, settings: databaseSettings } = await worker;

// Processes a test starts (`npm run keys`, a server in a child process) read their environment as
// any process does: they get this worker's database there. The app in this process does not read it.
if (databaseSettings.DATABASE_URL) process.env.DATABASE_URL = databaseSettings.DATABASE_URL;
else delete process.env.DATABASE_URL;
process.env.DATA_DIR = databaseSettings.DATA_DIR;

/** The process's environment with this worker's database, and `overrides` (variables as text). */
export function configWith(overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...process.env, ...databaseSettings, ...overrides });
}

/** The configuration every test app starts from. */
export const testConfig: Config = configWith();

/** This worker's store; apps built with other settings share it (see `storeWith`). */
export const store: Store = workerStore;
export const { prisma, database } = store;

/** The same database seen with other store settings (retention, write limits). */
export const storeWith = (settings: Partial<Pick<Store, "retentionMs" | "writeLimits">>): Store => ({
  ...store,
  ...settings,
});

// Every table the migrations made, emptied: what an earlier file wrote is gone.
const tables = await database.query<{ name: string }>(
  `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
);
await database.query(`TRUNCATE ${tables.map((t) => t.name).join(", ")} RESTART IDENTITY CASCADE`);

afterAll(endFile);
