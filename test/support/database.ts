// Runs before every test file, in its worker: gives the file a database of its own, with the
// migrations applied. TEST_DATABASE_URL set: a new database on that PostgreSQL server, dropped
// afterwards. Unset: an in-memory PGlite, loaded from the PGlite template (kept current by the
// global setup, test/support/pglite-template.ts), so it holds the migrations already. The app's
// modules read the environment when first imported, which is after this file.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll } from "vitest";

const serverUrl = process.env.TEST_DATABASE_URL;
let dropDatabase: (() => Promise<void>) | undefined;

if (serverUrl) {
  const name = `dialogql_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  dropDatabase = async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
} else {
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = "memory://";
}

const { database, closeDatabase } = await import("../../src/db/prisma.js");
const { applyMigrations } = await import("../../src/db/migrate.js");
await applyMigrations(database);

afterAll(async () => {
  await closeDatabase();
  await dropDatabase?.();
});
