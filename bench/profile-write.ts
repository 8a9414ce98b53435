// Profiles one side of the write scenario (bench/scenarios/write.ts) under its own load: SIDE=dialogql
// (the server in this process, turns with usage) or SIDE=peer (the yoga + pg peer in this process).
// 16 HTTP clients in another process, a warm-up run, then a profiled run; prints turns/s and the
// serving process's CPU per turn, how many of the tenant's calls held a connection or waited for
// its share of the pool (dialogql), and writes the V8 profile to PROFILE (when given).
// `flock /work/helpers/measure.lock npx tsx bench/profile-write.ts` with BENCH_DATABASE_URL set.
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { runTs } from "./lib/child.js";
import { DEVELOPMENT_TENANT } from "../src/auth/authenticator.js";
import { applyMigrations } from "../src/db/migrate.js";
import { config, database } from "./lib/store.js";
import { startInProcessServer } from "./lib/server.js";
import { servePeer } from "./lib/peer.js";
import { pgPeerDatabase } from "./peer/pg-peer-database.js";

const side = process.env.SIDE ?? "dialogql";
const seconds = Number(process.env.SECONDS ?? 5);
const here = path.dirname(new URL(import.meta.url).pathname);

async function startPeerHere() {
  await applyMigrations(database);
  const { db, pool } = pgPeerDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  return servePeer(db, () => pool.end());
}

const server = side === "peer" ? await startPeerHere() : await startInProcessServer();
type LoadResult = { turns: number; elapsedMs: number; p50: number; p99: number };
const load = (durationMs: number) =>
  runTs<LoadResult[]>(path.join(here, "load/http-writer.ts"), {
    TARGET_URL: server.url,
    CONCURRENCY: "16",
    DURATION_MS: String(durationMs),
    WITH_USAGE: side === "peer" ? "0" : "1",
  }).then((r) => r[0]!);

await load(2_000); // warm-up
const session = new Session();
session.connect();
if (process.env.PROFILE) {
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
}
// How many of the tenant's calls hold a connection and how many wait in its share (src/db/tenant-work.ts).
const share =
  side === "peer" ? null : (server as Awaited<ReturnType<typeof startInProcessServer>>).app.services.tenantReads;
const samples = { active: 0, waiting: 0, waited: 0, n: 0 };
const sampler = setInterval(() => {
  if (!share) return;
  const waiting = share.waiting(DEVELOPMENT_TENANT);
  samples.active += share.active(DEVELOPMENT_TENANT);
  samples.waiting += waiting;
  samples.waited += waiting > 0 ? 1 : 0;
  samples.n++;
}, 5);
const before = process.cpuUsage();
const result = await load(seconds * 1000);
const cpu = process.cpuUsage(before);
clearInterval(sampler);
if (process.env.PROFILE) {
  const { profile } = await session.post("Profiler.stop");
  await writeFile(process.env.PROFILE, JSON.stringify(profile));
}
await server.close();
const turns = result.turns + 16;
console.log(
  JSON.stringify({
    side,
    turnsPerSecond: Math.round((result.turns / result.elapsedMs) * 1000),
    cpuMsPerTurn: Number(((cpu.user + cpu.system) / 1000 / turns).toFixed(2)),
    p50: result.p50,
    ...(share && {
      share: {
        active: Number((samples.active / samples.n).toFixed(1)),
        waiting: Number((samples.waiting / samples.n).toFixed(1)),
        someoneWaiting: Number((samples.waited / samples.n).toFixed(2)),
      },
    }),
  }),
);
process.exit(0);
