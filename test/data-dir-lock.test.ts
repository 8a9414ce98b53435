// The embedded data directory belongs to one process at a time (issue 13, finding 6): while the
// server runs on it, `npm run keys` and `npm run migrate` refuse with a message naming the server's
// process, and change nothing; once the server has stopped they work. A lock left by a process
// that died is taken over.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LOCK_FILE, LOCKED_EXIT_CODE } from "../src/db/data-dir-lock.js";
import { freePort, startChildServer } from "./support/child-server.js";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

function command(script: string, args: string[], dataDir: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", script, ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, REDIS_URL: "", LOG_LEVEL: "silent" },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const keys = (dataDir: string, ...args: string[]) => command("src/auth/keys-cli.ts", args, dataDir);
const migrate = (dataDir: string) => command("src/db/migrate-cli.ts", [], dataDir);

describe("the embedded data directory is locked by the process using it", () => {
  it("keys and migrate refuse while the server runs, and work once it has stopped", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "dialogql-lock-"));
    const server = await startChildServer(await freePort(), { DATABASE_URL: "", DATA_DIR: dataDir, REDIS_URL: "" });
    let serverPid: number;
    try {
      serverPid = Number(readFileSync(path.join(dataDir, LOCK_FILE), "utf8").split("\n")[0]);
      for (const refused of [await keys(dataDir, "create", "--tenant", "t1"), await migrate(dataDir)]) {
        expect(refused.code).toBe(LOCKED_EXIT_CODE);
        expect(refused.stdout).toBe("");
        expect(refused.stderr).toContain(`is in use by process ${serverPid}`);
        expect(refused.stderr).toContain("stop the server first");
        expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace
      }
      // The server never got a key: it still serves without one.
      const answer = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ dialogs(first: 1) { edges { node { id } } } }" }),
      });
      expect(answer.status).toBe(200);
    } finally {
      await server.stop();
    }
    const created = await keys(dataDir, "create", "--tenant", "t1");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('for tenant "t1"');
  });

  it("a lock left by a process that is gone is taken over", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "dialogql-lock-"));
    // A pid far above Linux's default pid_max: no such process.
    writeFileSync(path.join(dataDir, LOCK_FILE), "4194304\nsrc/main.ts\n");
    const listed = await keys(dataDir, "list");
    expect(listed.code).toBe(0);
  });
});
