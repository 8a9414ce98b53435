// Scenario 6, embedded start: `npm start` on an empty data directory until the first query is
// answered, then resident memory at idle.
import { spawn, execSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { emit } from "../lib/report.js";

const dataDir = await mkdtemp(path.join(tmpdir(), "dialogql-start-"));
// A port free now, not a random one: a random port was sometimes taken (other servers, or the
// client ends of a fan-out run), and then another process answered the first query.
const port = await new Promise<number>((resolve, reject) => {
  const probe = createServer().once("error", reject);
  probe.listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const started = performance.now();
const child = spawn("npm", ["start", "--silent"], {
  cwd: root,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
  },
  stdio: "ignore",
  detached: true,
});

let firstAnswerMs = NaN;
for (const deadline = started + 60_000; performance.now() < deadline;) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ dialogs(first: 1) { edges { cursor } } }" }),
    });
    if (response.ok) {
      firstAnswerMs = performance.now() - started;
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
}

await new Promise((resolve) => setTimeout(resolve, 2_000));
// npm → sh → node: the server is the deepest descendant; sum the tree's resident memory.
const tree = execSync(`ps -o pid= -g ${child.pid}`).toString().trim().split(/\s+/);
const rssKb = tree
  .map((pid) => /VmRSS:\s+(\d+)/.exec(safeRead(`/proc/${pid}/status`))?.[1])
  .reduce((sum, kb) => sum + Number(kb ?? 0), 0);
process.kill(-child.pid!, "SIGTERM");
await rm(dataDir, { recursive: true, force: true });

emit([
  {
    scenario: "embedded start",
    metric: "npm start → first answered query",
    value: Math.round(firstAnswerMs),
    unit: "ms",
    target: "≤ 5000 ms",
    met: firstAnswerMs <= 5_000,
  },
  {
    scenario: "embedded start",
    metric: "resident memory at idle (npm + server)",
    value: Math.round(rssKb / 1024),
    unit: "MB",
  },
]);

function safeRead(file: string) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
