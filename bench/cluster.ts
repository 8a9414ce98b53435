// `npm run bench:cluster [-- --smoke]`: 1, 2 and 3 dialogql instances (separate processes) behind
// HAProxy (leastconn, /health checks), on one PostgreSQL through PgBouncer in transaction mode and a
// three-master Redis Cluster, all started here on loopback ports 4160-4178. For each N: a connect
// storm of SUBSCRIBERS graphql-ws subscribers (10,000; --smoke: 500) over DIALOGS dialogs (100)
// through HAProxy, /health asked every 100 ms from a process of its own meanwhile; then a writer at
// WRITE_RATE turns/s (20) through HAProxy; then one instance SIGKILLed (and started again, as a
// supervisor would) and one Redis master SIGKILLed and started again 3 s later, the writer going on.
// Prints lost and duplicated deltas (every subscriber against what PostgreSQL committed), delivery
// p50/p99 same- and cross-instance, database statements per write, how long the killed instance's
// subscribers took to resume, /health during the storm, and HAProxy's ejections (its stats socket).
// Writes bench/results/cluster.json (smoke: cluster-smoke.json). Not part of `npm test` or CI.
//
// Needs: PostgreSQL (BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres; a
// fresh database is made on it and dropped), Debian's haproxy and pgbouncer, redis-server 7+.
// INSTANCES=1,2,3 chooses the Ns.
import { mkdtempSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { freshDatabase } from "./lib/databases.js";
import { spawnIpcChild } from "./lib/ipc-child.js";
import { haproxyMissing } from "./cluster/haproxy.js";
import { runPhase, type PhaseSettings } from "./cluster/phase.js";
import { printPhase, printSummary } from "./cluster/print.js";
import { pgbouncerMissing, startPgbouncer } from "../test/support/pgbouncer.js";
import { redisClusterUnavailable, startOwnRedisCluster } from "../test/support/redis-cluster.js";
import { endFile } from "../test/support/file-scope.js";

const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const number = (name: string, fallback: number) => Number(process.env[name] || fallback);
const settings: PhaseSettings = {
  subscribers: number("SUBSCRIBERS", smoke ? 500 : 10_000),
  dialogs: number("DIALOGS", 100),
  writeRate: number("WRITE_RATE", 20),
  idleMs: number("IDLE_MS", smoke ? 5_000 : 10_000),
  steadyMs: number("STEADY_MS", smoke ? 10_000 : 20_000),
  stormTimeoutMs: number("STORM_TIMEOUT_MS", 300_000),
  ports: {
    balancers: [
      { front: 4160, stats: 4161 },
      { front: 4170, stats: 4171 },
      { front: 4172, stats: 4173 },
    ],
    instances: [4166, 4167, 4168],
    // Each instance's HEALTH_PORT, which HAProxy checks.
    health: [4176, 4177, 4178],
  },
};
const counts = (process.env.INSTANCES || "1,2,3").split(",").map(Number);
const serverUrl = process.env.BENCH_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

for (const missing of [haproxyMissing(), pgbouncerMissing(), redisClusterUnavailable()]) {
  if (missing) {
    console.error(`bench:cluster: ${missing} (apt-get install -y haproxy pgbouncer redis-server)`);
    process.exit(2);
  }
}

const directory = mkdtempSync(path.join(tmpdir(), "dialogql-bench-cluster-"));
const database = await freshDatabase(serverUrl);
const cleanups: (() => Promise<unknown> | unknown)[] = [() => endFile(), () => database.drop()];
let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch((e) => console.error(e));
  console.error(`instance logs and HAProxy files kept in ${directory}`);
}
process.on("SIGINT", () => void cleanUp().then(() => process.exit(130)));

const results = [];
try {
  const directUrl = database.env.DATABASE_URL!;
  const bouncer = await startPgbouncer(directUrl, { port: 4162, poolSize: 8, maxClientConnections: 300 });
  const cluster = await startOwnRedisCluster(3, { ports: [4163, 4164, 4165] });
  console.log(
    `bench:cluster — ${settings.subscribers} subscribers over ${settings.dialogs} dialogs, ${settings.writeRate} writes/s; ` +
      `PgBouncer ${bouncer.url.replace(/\/[^/]*$/, "")} (transaction mode, 8 server connections), Redis Cluster ${cluster.nodes}; ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
  const env = {
    DATABASE_URL: bouncer.url,
    DATABASE_POOLER: "transaction",
    DATABASE_DIRECT_URL: directUrl,
    REDIS_URL: "",
    REDIS_CLUSTER_NODES: cluster.nodes,
    // One development tenant and one client address hold every socket; the per-tenant, per-key
    // and rate limits are not what is measured.
    MAX_CONNECTIONS_PER_TENANT: "1000000",
    MAX_CONNECTIONS_PER_KEY: "1000000",
    MAX_CONNECTIONS_PER_INSTANCE: "15000",
    RATE_LIMIT_REQUESTS: "0",
    LOG_LEVEL: "warn",
  };
  for (const n of counts) {
    const phaseDirectory = mkdtempSync(path.join(directory, `n${n}-`));
    // A phase that breaks (an instance too busy to answer) is reported, and the next N still runs.
    const result = await runPhase(n, settings, {
      env,
      directory: phaseDirectory,
      directUrl,
      cluster,
      spawn: spawnIpcChild,
    }).catch((error: Error) => {
      console.log(`\n== N = ${n}: FAILED: ${error.stack ?? error.message}`);
      return null;
    });
    if (!result) continue;
    printPhase(result);
    results.push(result);
  }
  printSummary(results, settings);
  const file = path.join(
    path.dirname(new URL(import.meta.url).pathname),
    "results",
    smoke ? "cluster-smoke.json" : "cluster.json",
  );
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), settings, results }, null, 2) + "\n");
  console.log(`written to ${path.relative(process.cwd(), file)}`);
} finally {
  await cleanUp();
}
process.exit(0);
