// `npm run import -- FILE` as a person runs it: a ChatGPT export comes in with a progress report,
// a second run stores nothing twice, and a bad file is refused naming the record, nothing stored.
// It runs the built CLI (dist/services/import-cli.js, what the npm script runs) on an embedded database of
// its own in a temporary directory.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const FIXTURES = path.join(ROOT, "test/fixtures/chat-exports");
const dir = mkdtempSync(path.join(tmpdir(), "dialogql-import-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: ROOT });
});

function importFile(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path.join(dir, "data"), LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, "dist/services/import-cli.js"), ...args],
      { cwd: dir, env },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// About the command, not the database: it runs in the embedded pass only.
describe.skipIf(process.env.TEST_DATABASE_URL)("npm run import", () => {
  it("imports a ChatGPT export once, with progress, and refuses a bad file naming the record", async () => {
    const file = path.join(FIXTURES, "chatgpt-conversations.json");
    const first = await importFile(file, "--tenant", "me");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("2 conversations (CHATGPT), all checked.");
    expect(first.stdout).toContain('Imported 2 for tenant "me".');
    expect(first.stderr).toContain("2/2 conversations");

    const again = await importFile(file, "--tenant", "me");
    expect(again.stdout).toContain('Imported 0 for tenant "me"; 2 were imported before.');

    const bad = await importFile(path.join(FIXTURES, "chatgpt-bad-record.json"), "--tenant", "me");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Nothing was imported. The file has a problem:");
    expect(bad.stderr).toContain(
      'conversation 2 conv-lisbon ("Trip to Lisbon") › message u2 › author › role: unknown role "robot"',
    );
    expect(bad.stderr).not.toMatch(/\n\s+at /);

    const missing = await importFile(path.join(dir, "nope.json"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Cannot read");
  });
});
