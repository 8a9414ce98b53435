// Scenario 1, write: createResponse with a human, a reasoning, an AI and a tool-call event from
// 16 concurrent HTTP clients in another process. Peers doing the same inserts at the same
// concurrency and pool size: the yoga + `pg` server (bench/peer/yoga-pg.ts) over HTTP from the
// same load generator, and the rows written with raw SQL in one transaction per turn. dialogql
// and the peer are interleaved, REPS times each, and each figure is the median of the repetitions.
import path from "node:path";
import { database } from "../lib/store.js";
import { runTs } from "../lib/child.js";
import { PEER_NAME, startPeer } from "../lib/peer.js";
import { emit, smoke } from "../lib/report.js";
import { startInProcessServer } from "../lib/server.js";
import { percentile, summarize } from "../lib/stats.js";
import { runRawWriters } from "../load/raw-turn.js";

const CONCURRENCY = 16;
const REPS = smoke ? 1 : 3;
const DURATION_MS = smoke ? 1_000 : 3_000;
const here = path.dirname(new URL(import.meta.url).pathname);

type LoadResult = { turns: number; elapsedMs: number; p50: number; p99: number };
const load = { CONCURRENCY: String(CONCURRENCY), DURATION_MS: String(DURATION_MS) };
const overHttp = async (url: string, withUsage = false) =>
  (
    await runTs<LoadResult[]>(path.join(here, "../load/http-writer.ts"), {
      TARGET_URL: url,
      ...load,
      WITH_USAGE: withUsage ? "1" : "0",
    })
  )[0]!;
// PGlite lives inside the server's process, so its raw baseline runs there too (the server is
// idle by then); PostgreSQL's runs in a process of its own, like the HTTP clients.
const raw = async () =>
  database.kind === "postgres"
    ? (await runTs<LoadResult[]>(path.join(here, "../load/raw-writer.ts"), load))[0]!
    : await runRawWriters(database, CONCURRENCY, DURATION_MS).then((r) => ({ ...summarize(r.latencies), ...r }));

const server = await startInProcessServer();
const peer = await startPeer();
const runs = { service: [] as LoadResult[], peer: [] as LoadResult[], raw: [] as LoadResult[] };
for (let rep = 0; rep < REPS; rep++) {
  // dialogql's turns carry usage, so its figure includes keeping the usage aggregates.
  runs.service.push(await overHttp(server.url, true));
  runs.peer.push(await overHttp(peer.url));
}
runs.raw.push(await raw()); // once: no goal rests on it
await peer.close();
await server.close();

const median = (which: LoadResult[], pick: (r: LoadResult) => number) => percentile(which.map(pick), 50);
const throughput = (r: LoadResult) => (r.turns / r.elapsedMs) * 1000;
const [service, peerFigures, rawFigures] = [runs.service, runs.peer, runs.raw].map((which) => ({
  throughput: median(which, throughput),
  p50: median(which, (r) => r.p50),
  p99: median(which, (r) => r.p99),
}));
emit([
  {
    scenario: "write",
    metric: "one 3-event turn, 16 clients, throughput",
    value: round(service!.throughput),
    unit: "turns/s",
    baseline: round(peerFigures!.throughput),
    peer: PEER_NAME,
    ratio: round(service!.throughput / peerFigures!.throughput, 2),
    target: "≥ 1.0×",
    met: service!.throughput >= peerFigures!.throughput,
    goal: true,
  },
  {
    scenario: "write",
    metric: "throughput, 16 clients",
    value: round(service!.throughput),
    unit: "turns/s",
    baseline: round(rawFigures!.throughput),
    ratio: round(service!.throughput / rawFigures!.throughput, 2),
    target: "≥ 0.5 of raw",
    met: service!.throughput / rawFigures!.throughput >= 0.5,
  },
  {
    scenario: "write",
    metric: "latency p50, 16 clients",
    value: round(service!.p50, 2),
    unit: "ms",
    baseline: round(peerFigures!.p50, 2),
    peer: PEER_NAME,
    note: `raw SQL ${round(rawFigures!.p50, 2)} ms`,
  },
  {
    scenario: "write",
    metric: "latency p99, 16 clients",
    value: round(service!.p99, 2),
    unit: "ms",
    baseline: round(peerFigures!.p99, 2),
    peer: PEER_NAME,
    note: `raw SQL ${round(rawFigures!.p99, 2)} ms`,
  },
]);

function round(n: number, digits = 1) {
  return Number(n.toFixed(digits));
}
