// PgBouncer of the test's own in transaction mode, on a free loopback port, in front of the
// PostgreSQL of TEST_DATABASE_URL: every database name passes through to that server. Its pool is
// kept small (2 server connections per database and user), so consecutive transactions of one
// client connection land on different server connections, as they do under load in production.
// Stopped, and its files removed, after the test file.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { atEveryFileEnd } from "./file-scope.js";
import { freePort } from "./redis-server.js";

const running = new Set<ChildProcess>();
const directories = new Set<string>();
atEveryFileEnd(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  directories.clear();
});

/** Why PgBouncer cannot be started here, or null when it can. */
export function pgbouncerUnavailable(): string | null {
  if (!process.env.TEST_DATABASE_URL) return "needs TEST_DATABASE_URL (a PostgreSQL server to pool)";
  return pgbouncerMissing();
}

/** Why PgBouncer cannot be started here, or null when it can: the binary alone (a bench brings its own server). */
export const pgbouncerMissing = () =>
  spawnSync("pgbouncer", ["--version"]).error ? "pgbouncer is not installed" : null;

export interface PgbouncerOptions {
  /** Server connections per database and user. */
  poolSize?: number;
  /** A fixed loopback port (a free one when unset). */
  port?: number;
  maxClientConnections?: number;
}

/** `databaseUrl` (on TEST_DATABASE_URL's server) as reached through a new PgBouncer. */
export async function startPgbouncer(
  databaseUrl: string,
  { poolSize = 2, port: fixedPort, maxClientConnections = 500 }: PgbouncerOptions = {},
): Promise<{ url: string; stop(): void }> {
  const server = new URL(databaseUrl);
  const directory = mkdtempSync(path.join(tmpdir(), "dialogql-pgbouncer-"));
  directories.add(directory);
  // PgBouncer refuses to run as root; as root it is told to become the postgres user, who must
  // read its files.
  chmodSync(directory, 0o755);
  const port = fixedPort ?? (await freePort());
  const user = decodeURIComponent(server.username) || "postgres";
  writeFileSync(path.join(directory, "users.txt"), `"${user}" ""\n`);
  writeFileSync(
    path.join(directory, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(directory, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      `max_client_conn = ${maxClientConnections}`,
      "ignore_startup_parameters = extra_float_digits,options",
      // SHOW POOLS and SHOW STATS on the `pgbouncer` database (a bench reads its queue).
      `stats_users = ${user}`,
    ].join("\n"),
  );
  const asRoot = process.getuid?.() === 0;
  const child = spawn("pgbouncer", [...(asRoot ? ["-u", "postgres"] : []), path.join(directory, "pgbouncer.ini")], {
    stdio: "ignore",
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const url = new URL(databaseUrl);
  url.port = String(port);
  url.hostname = "127.0.0.1";
  await waitForQuery(url.toString(), child);
  return { url: url.toString(), stop: () => void child.kill("SIGKILL") };
}

async function waitForQuery(url: string, child: ChildProcess) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}`);
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`pgbouncer did not answer: ${(error as Error).message}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
