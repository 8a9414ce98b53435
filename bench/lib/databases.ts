// A fresh, empty database for each scenario: a temporary PGlite directory, or a new database on
// the PostgreSQL server of BENCH_DATABASE_URL, dropped afterwards.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export interface BenchDatabase {
  kind: "pglite" | "postgres";
  /** Environment that points dialogql (and raw baselines) at it. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export async function freshDatabase(serverUrl?: string): Promise<BenchDatabase> {
  if (!serverUrl) {
    const dir = await mkdtemp(path.join(tmpdir(), "dialogql-bench-"));
    return {
      kind: "pglite",
      env: { DATA_DIR: dir, DATABASE_URL: "" },
      drop: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const name = `dialogql_bench_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    kind: "postgres",
    env: { DATABASE_URL: url.toString() },
    drop: () =>
      withAdmin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
