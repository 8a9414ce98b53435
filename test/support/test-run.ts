// Vitest global setup: on PostgreSQL each worker makes a database of its own, named with this
// run's prefix (test/support/database.ts); they are dropped when the run ends, whatever happened.
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabasePrefix: string;
  }
}

export default function setup(project: TestProject) {
  const prefix = `dialogql_test_${randomBytes(4).toString("hex")}`;
  project.provide("testDatabasePrefix", prefix);
  return async function teardown() {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) return;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `${prefix}\\_%`,
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
  };
}
