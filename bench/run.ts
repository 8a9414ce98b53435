// `npm run bench [-- --smoke] [-- --only=write,read] [-- --db=postgres]`: every scenario in a fresh database and a
// process of its own, on embedded PGlite and — with BENCH_DATABASE_URL / BENCH_REDIS_URL — on
// PostgreSQL and Redis. Prints a table and writes bench/results/latest.json (smoke runs:
// smoke.json), each figure with the raw baseline measured in the same run and the ratio.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runTs } from "./lib/child.js";
import { freshDatabase } from "./lib/databases.js";
import type { Figure } from "./lib/report.js";

const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const here = path.dirname(new URL(import.meta.url).pathname);

interface Scenario {
  name: string;
  file: string;
  /** Runs once, not once per database. */
  embeddedOnly?: boolean;
  /** Runs only with BENCH_REDIS_URL. */
  needsRedis?: boolean;
  /** Runs only on a database server: instances share one; an embedded database belongs to one process. */
  serverOnly?: boolean;
}
const scenarios: Scenario[] = [
  { name: "write", file: "scenarios/write.ts" },
  { name: "read", file: "scenarios/read.ts" },
  { name: "read-scaling", file: "scenarios/read-scaling.ts" },
  { name: "deep-chain", file: "scenarios/deep-chain.ts" },
  { name: "fanout", file: "scenarios/fanout.ts" },
  { name: "text-stream", file: "scenarios/text-stream.ts" },
  { name: "checkpoint", file: "scenarios/checkpoint.ts" },
  { name: "cross-instance", file: "scenarios/cross-instance.ts", needsRedis: true, serverOnly: true },
  { name: "startup", file: "scenarios/startup.ts", embeddedOnly: true },
  { name: "generate", file: "scenarios/generate.ts" },
  { name: "mcp-call", file: "scenarios/mcp-call.ts" },
  { name: "search", file: "scenarios/search.ts" },
  { name: "token-budget", file: "scenarios/token-budget.ts" },
  { name: "chat-match", file: "scenarios/chat-match.ts" },
  { name: "usage-report", file: "scenarios/usage-report.ts" },
  // Needs Debian's chromium (/usr/bin/chromium); the viewer's build (web/dist) is the installed one.
  { name: "viewer-long-dialog", file: "scenarios/viewer-long-dialog.ts" },
].filter((s) => !only || only.includes(s.name));

// `--db=postgres` or `--db=pglite`: one database only (both by default).
const onlyDatabase = args.find((a) => a.startsWith("--db="))?.slice(5);
const databases = [
  { name: "embedded (PGlite)", serverUrl: undefined as string | undefined },
  ...(process.env.BENCH_DATABASE_URL ? [{ name: "PostgreSQL", serverUrl: process.env.BENCH_DATABASE_URL }] : []),
].filter((db) => !onlyDatabase || (onlyDatabase === "postgres") === Boolean(db.serverUrl));

const results: (Figure & { database: string })[] = [];
const failures: string[] = [];
const started = Date.now();
for (const db of databases) {
  for (const scenario of scenarios) {
    if (scenario.embeddedOnly && db.serverUrl) continue;
    if (scenario.needsRedis && !process.env.BENCH_REDIS_URL) continue;
    if (scenario.serverOnly && !db.serverUrl) continue;
    const database = await freshDatabase(db.serverUrl);
    const scenarioStarted = Date.now();
    process.stderr.write(`[bench] ${scenario.name} on ${db.name}…\n`);
    try {
      const figures = await runTs<Figure[]>(path.join(here, scenario.file), {
        ...database.env,
        BENCH_SMOKE: smoke ? "1" : "0",
        // Thousands of subscribers share the development tenant and one client address here;
        // the per-tenant and per-key admission limits (500 and 100 by default) are not measured.
        MAX_CONNECTIONS_PER_TENANT: "100000",
        MAX_CONNECTIONS_PER_KEY: "100000",
        REDIS_URL: process.env.BENCH_REDIS_URL ?? "",
      });
      results.push(...figures.map((f) => ({ database: db.name, ...f })));
    } catch (error) {
      // One broken scenario must not cost the figures of all the others.
      failures.push(`${scenario.name} on ${db.name}`);
      process.stderr.write(`[bench] ${scenario.name} on ${db.name} FAILED: ${(error as Error).message}\n`);
    } finally {
      await database.drop();
      process.stderr.write(
        `[bench] ${scenario.name} on ${db.name}: ${Math.round((Date.now() - scenarioStarted) / 1000)} s\n`,
      );
    }
  }
}

const elapsedSeconds = Math.round((Date.now() - started) / 1000);
const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? "unknown",
  memoryGb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
if (!only && !onlyDatabase) {
  results.push({
    database: "both",
    scenario: "bench",
    metric: "the whole `npm run bench`",
    value: elapsedSeconds,
    unit: "s",
    target: "≤ 600 s",
    met: elapsedSeconds <= 600,
    goal: true,
  });
}
printTable(results.filter((r) => !r.goal));
console.log(`\nGoals${smoke ? " — smoke run: small sizes, met / missed only indicative" : ""}:`);
printGoals(results.filter((r) => r.goal));
console.log(
  `\n${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}; ${elapsedSeconds} s${smoke ? " (smoke: small sizes, targets not judged)" : ""}`,
);

mkdirSync(path.join(here, "results"), { recursive: true });
const file = path.join(here, "results", smoke ? "smoke.json" : "latest.json");
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), smoke, machine, results }, null, 2)}\n`);
console.log(`results: ${path.relative(process.cwd(), file)}`);
if (failures.length) {
  console.log(`FAILED: ${failures.join(", ")}`);
  process.exitCode = 1;
}

function withUnit(n: number | undefined, unit: string) {
  return n === undefined ? "" : `${n} ${unit}`.trimEnd();
}

function printTable(rows: typeof results) {
  const header = ["database", "scenario", "metric", "value", "baseline", "ratio", "target", smoke ? "" : "met"];
  const lines = rows.map((r) => [
    r.database,
    r.scenario,
    r.metric,
    withUnit(r.value, r.unit),
    r.baseline === undefined ? "" : `${r.peer ?? "raw"}: ${withUnit(r.baseline, r.unit)}`,
    r.ratio === undefined ? "" : `${r.ratio}×`,
    r.target ?? "",
    smoke || r.met === undefined ? "" : r.met ? "yes" : "NO",
  ]);
  printRows(header, lines);
}

/** The goals of issue 20: dialogql's figure, its peer's, dialogql ÷ peer, the target, met or missed. */
function printGoals(rows: typeof results) {
  const header = ["goal", "database", "dialogql", "peer", "ratio", "target", "met"];
  const lines = rows.map((r) => [
    `${r.scenario}: ${r.metric}`,
    r.database,
    withUnit(r.value, r.unit),
    r.baseline === undefined ? "" : `${r.peer ?? "raw"}: ${withUnit(r.baseline, r.unit)}`,
    r.ratio === undefined ? "" : `${r.ratio}×`,
    r.target ?? "",
    r.met === undefined ? "" : r.met ? "met" : "MISSED",
  ]);
  printRows(header, lines);
}

function printRows(header: string[], lines: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  console.log(format(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const line of lines) console.log(format(line));
}
