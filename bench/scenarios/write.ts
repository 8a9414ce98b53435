// Scenario 1, write: createResponse with a human, a reasoning, an AI and a tool-call event from
// 16 concurrent HTTP clients in another process, against the same rows written with raw SQL in
// one transaction per turn, same concurrency and pool size.
import path from "node:path";
import { database } from "../lib/store.js";
import { runTs } from "../lib/child.js";
import { emit, smoke } from "../lib/report.js";
import { startInProcessServer } from "../lib/server.js";
import { summarize } from "../lib/stats.js";
import { runRawWriters } from "../load/raw-turn.js";

const CONCURRENCY = 16;
const DURATION_MS = smoke ? 1500 : 15_000;
const here = path.dirname(new URL(import.meta.url).pathname);

const server = await startInProcessServer();
type LoadResult = { turns: number; elapsedMs: number; p50: number; p99: number }[];
const [service] = await runTs<LoadResult>(path.join(here, "../load/http-writer.ts"), {
  TARGET_URL: server.url,
  CONCURRENCY: String(CONCURRENCY),
  DURATION_MS: String(DURATION_MS),
});

// PGlite lives inside the server's process, so its raw baseline runs there too (the server is
// idle by then); PostgreSQL's runs in a process of its own, like the HTTP clients.
const raw =
  database.kind === "postgres"
    ? (
        await runTs<LoadResult>(path.join(here, "../load/raw-writer.ts"), {
          CONCURRENCY: String(CONCURRENCY),
          DURATION_MS: String(DURATION_MS),
        })
      )[0]!
    : await runRawWriters(database, CONCURRENCY, DURATION_MS).then((r) => ({ ...summarize(r.latencies), ...r }));
await server.close();

const throughput = (r: { turns: number; elapsedMs: number }) => (r.turns / r.elapsedMs) * 1000;
const ratio = throughput(service!) / throughput(raw);
emit([
  {
    scenario: "write",
    metric: "throughput, 16 clients",
    value: round(throughput(service!)),
    unit: "turns/s",
    baseline: round(throughput(raw)),
    ratio: round(ratio, 2),
    target: "≥ 0.5 of raw",
    met: ratio >= 0.5,
  },
  { scenario: "write", metric: "latency p50", value: round(service!.p50, 2), unit: "ms", baseline: round(raw.p50, 2) },
  { scenario: "write", metric: "latency p99", value: round(service!.p99, 2), unit: "ms", baseline: round(raw.p99, 2) },
]);

function round(n: number, digits = 1) {
  return Number(n.toFixed(digits));
}
