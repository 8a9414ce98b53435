// A mixed soak, run by hand (not part of `npm run bench` or the tests): two server processes on a
// fresh PostgreSQL database and one Redis, API keys required, a stand-in model upstream. Tenant A
// loads every transport at once — GraphQL writers, graphql-ws and SSE subscribers (an SSE flood
// from one key, past its cap), streamed and whole /v1 turns, a /v1 WebSocket that never reads — on
// both instances; tenant B reads its own dialog on instance 1 throughout. Prints each instance's
// RSS at the start and the end, tenant B's read latency quiet and under the soak, and what A's
// transports did, and each instance's memory (RSS, V8 heap, external, ArrayBuffers) and event-loop
// lag every 10 s from its /metrics. The figures of a run go in docs/operations.md with the
// machine's load.
//
//   BENCH_DATABASE_URL=postgresql://… BENCH_REDIS_URL=redis://… [SOAK_PORT=4141] npx tsx bench/soak.ts [--minutes=5]
//
// `--minutes=1` is the shortened run (the quiet phase stays 15 s); SOAK_SSE=0 / SOAK_SILENT_TURNS=0
// leave the SSE flood / the non-reading /v1 socket out, to tell which part of the load did what.
// SOAK_NODE_ARGS_1 adds node flags to instance 1 only (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`:
// it exits on SIGTERM through its drain, so the profile is written); MALLOC_ARENA_MAX and the like
// reach both instances through the environment.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import path from "node:path";
import WebSocket from "ws";
import { createApiKey } from "../src/auth/api-keys.js";
import { loadConfig } from "../src/config.js";
import { applyMigrations } from "../src/db/migrate.js";
import { openStore } from "../src/store/store.js";
import { startUpstreamStandIn } from "../test/support/upstream-stand-in.js";
import { freshDatabase } from "./lib/databases.js";
import { formatSamples, sampleInstances } from "./lib/soak-samples.js";
import { runTs } from "./lib/child.js";

const minutes = Number(process.argv.find((a) => a.startsWith("--minutes="))?.slice(10) ?? 5);
const QUIET_MS = 15_000;
const SSE_FLOOD = Number(process.env.SOAK_SSE ?? 150); // from one key: past MAX_CONNECTIONS_PER_KEY (100)
const SILENT_TURNS = Number(process.env.SOAK_SILENT_TURNS ?? 50); // asked on a /v1 socket that never reads
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const databaseUrl = process.env.BENCH_DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL;
if (!databaseUrl || !redisUrl) throw new Error("the soak needs BENCH_DATABASE_URL and BENCH_REDIS_URL");
const database = await freshDatabase(databaseUrl);
const store = await openStore(loadConfig({ ...process.env, ...database.env }));
await applyMigrations(store.database);
const keyA = (await createApiKey(store, "soak-a")).key;
const keyB = (await createApiKey(store, "soak-b")).key;
// Tenant A's graphql-ws watchers have a key of their own: on A's writing key, whose writes run into
// its rate limit all along, their subscribe operations were refused too (RATE_LIMITED).
const keyWatchA = (await createApiKey(store, "soak-a", "watchers")).key;
const upstream = await startUpstreamStandIn();
upstream.fallback = { output: [{ text: "A reply of some length. ".repeat(20) }], chunkChars: 16, chunkDelayMs: 5 };

async function startInstance(port: number, nodeArgs: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      ...database.env,
      REDIS_URL: redisUrl,
      AUTH: "required",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      OPENAI_BASE_URL: upstream.url,
      OPENAI_API_KEY: "sk-stand-in",
      UPSTREAM_API: "chat",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`instance on ${port} exited (${child.exitCode})`);
    const ready = await fetch(`${url}/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, child };
    if (tries > 600) {
      // Not left running on its own after the soak gives up (on a loaded machine it can be slow to start).
      child.kill("SIGTERM");
      throw new Error(`instance on ${port} never became ready`);
    }
    await sleep(100);
  }
}

const rssMiB = (child: ChildProcess) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024);

const port = Number(process.env.SOAK_PORT ?? 4141);
const a = await startInstance(port, (process.env.SOAK_NODE_ARGS_1 ?? "").split(" ").filter(Boolean));
const b = await startInstance(port + 1);
const instances = [a, b];

async function graphql(url: string, key: string, query: string, variables?: object) {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, any>; errors?: { extensions?: { code?: string } }[] };
}
const WRITE = `mutation($input: CreateResponseInput!) { createResponse(input: $input) { ... on Response { dialog { id } } } }`;
const newDialog = async (url: string, key: string) =>
  (await graphql(url, key, WRITE, { input: { input: [{ human: { content: "start" } }] } })).data!.createResponse.dialog
    .id as string;

// Tenant B's probe: its own dialog's history, read on instance 1 and timed, in a process of its own
// (bench/load/tenant-probe.ts) so that the soak client's busy loop is not counted in B's times.
const dialogB = await newDialog(a.url, keyB);
type ProbeResult = { p50: number; p99: number; count: number; errors: number; loopDelayP99Ms: number };
const probe = (durationMs: number) =>
  runTs<ProbeResult[]>(path.join(root, "bench/load/tenant-probe.ts"), {
    TARGET_URL: a.url,
    API_KEY: keyB,
    DIALOG_ID: dialogB,
    DURATION_MS: String(durationMs),
  }).then((results) => results[0]!);

const sampler = sampleInstances(instances.map((instance) => instance.url));
await sleep(3_000); // start-up settles
const rssStart = instances.map((instance) => rssMiB(instance.child));
// The soak client's own event loop (A's load); B's probe has its own and reports its delay.
const clientDelay = monitorEventLoopDelay({ resolution: 5 });
clientDelay.enable();
const delayOf = () => {
  const ms = (ns: number) => (ns / 1e6).toFixed(0);
  const line = `mean ${ms(clientDelay.mean)} / p99 ${ms(clientDelay.percentile(99))} / max ${ms(clientDelay.max)} ms`;
  clientDelay.reset();
  return line;
};
const quiet = await probe(QUIET_MS);
const quietDelay = delayOf();

const end = Date.now() + minutes * 60_000;
const loadedProbe = probe(minutes * 60_000);
const tally: Record<string, number> = {};
const count = (what: string) => (tally[what] = (tally[what] ?? 0) + 1);

/** How long a refused write waits: what the refusal says (RATE_LIMITED's retryAfterSeconds,
 * TENANT_BUSY's retryAfterMs), else a doubling backoff from 100 ms to 5 s; jittered so the writers
 * do not come back together. A client written to the docs does this; one that retries at once only
 * measures how fast the server can refuse. */
function backoffMs(extensions: { retryAfterSeconds?: number; retryAfterMs?: number } | undefined, attempt: number) {
  const asked = extensions?.retryAfterMs ?? (extensions?.retryAfterSeconds ?? 0) * 1000;
  const base = asked || Math.min(5_000, 100 * 2 ** attempt);
  return base * (1 + Math.random() * 0.2);
}
const dialogsA = await Promise.all(instances.map((instance) => newDialog(instance.url, keyA)));

// Writers: GraphQL turns into A's dialogs, on both instances.
const writers = instances.flatMap((instance, i) =>
  Array.from({ length: 4 }, async () => {
    let attempt = 0;
    while (Date.now() < end) {
      const answer = await graphql(instance.url, keyA, WRITE, {
        input: {
          dialogId: dialogsA[i],
          input: [{ human: { content: "q" } }],
          output: [{ ai: { content: "a".repeat(2_000) } }],
        },
      }).catch(() => ({ errors: [{ extensions: { code: "fetch failed" } }] }));
      const error = answer.errors?.[0]?.extensions as
        { code?: string; retryAfterSeconds?: number; retryAfterMs?: number } | undefined;
      count(error ? `write error ${error.code}` : "write");
      if (!error) attempt = 0;
      else await sleep(Math.min(backoffMs(error, attempt++), end - Date.now()));
    }
  }),
);

// /v1 turns, streamed and whole, on both instances.
const turns = instances.map(async (instance, i) => {
  while (Date.now() < end) {
    const stream = i === 0;
    const response = await fetch(`${instance.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${keyA}` },
      body: JSON.stringify({ model: "stand-in-1", input: "Go on.", stream }),
    });
    await response.arrayBuffer();
    count(`v1 ${stream ? "stream" : "whole"} ${response.status}`);
    const retryAfter = Number(response.headers.get("retry-after") ?? 1);
    if (response.status === 429)
      await sleep(Math.min(backoffMs({ retryAfterSeconds: retryAfter }, 0), end - Date.now()));
  }
});

// Subscribers: graphql-ws on instance 2, and an SSE flood from one key on instance 1.
const sockets: WebSocket[] = [];
for (let s = 0; s < 20; s++) {
  const socket = new WebSocket(`${b.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws", {
    headers: { authorization: `Bearer ${keyWatchA}` },
  });
  socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init" })));
  // graphql-ws closes a socket that subscribes before its connection_ack (4401): wait for it.
  socket.on("message", (data) => {
    const { type } = JSON.parse(String(data)) as { type: string };
    if (type !== "connection_ack") return void count(type === "next" ? "ws delta" : `ws ${type}`);
    socket.send(
      JSON.stringify({
        id: "1",
        type: "subscribe",
        payload: {
          query: `subscription($d: ID!) { historyDelta(dialogId: $d) { seq } }`,
          variables: { d: dialogsA[0] },
        },
      }),
    );
  });
  socket.on("close", (code) => count(`ws closed ${code}`));
  socket.on("error", () => count("ws error"));
  sockets.push(socket);
}
const sseAborts = Array.from({ length: SSE_FLOOD }, () => {
  const abort = new AbortController();
  void fetch(`${a.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${keyA}` },
    body: JSON.stringify({
      query: `subscription($d: ID!) { historyDelta(dialogId: $d) { seq } }`,
      variables: { d: dialogsA[1] },
    }),
    signal: abort.signal,
  })
    .then(async (response) => {
      count(`sse ${response.status}`);
      const reader = response.body!.getReader();
      while (!(await reader.read()).done) if (abort.signal.aborted) break;
    })
    .catch(() => undefined);
  return abort;
});

// A /v1 WebSocket that asks for turns and never reads what comes back.
const silent = new WebSocket(`${a.url.replace(/^http/, "ws")}/v1/responses`, {
  headers: { authorization: `Bearer ${keyA}` },
});
silent.on("open", () => {
  for (let t = 0; t < SILENT_TURNS; t++)
    silent.send(JSON.stringify({ type: "response.create", model: "stand-in-1", input: "Talk." }));
  (silent as unknown as { _socket: { pause(): void } })._socket.pause();
});
silent.on("close", (code) => count(`silent socket closed ${code}`));
silent.on("error", () => undefined);

const loaded = await loadedProbe;
const loadedDelay = delayOf();
await Promise.all([...writers, ...turns]);
const rssEnd = instances.map((instance) => rssMiB(instance.child));
sampler.stop();
for (const socket of sockets) socket.close();
for (const abort of sseAborts) abort.abort();
silent.terminate();
for (const instance of instances) instance.child.kill("SIGTERM");
await Promise.all(instances.map((instance) => new Promise((resolve) => instance.child.once("exit", resolve))));
await upstream.close();
await store.close();
await database.drop();

const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`soak: ${minutes} min, two instances, PostgreSQL + Redis, keys required`);
console.log(`RSS (MiB) at start: ${rssStart.join(", ")}; at the end: ${rssEnd.join(", ")}`);
console.log(
  `tenant B reads, quiet: p50 ${ms(quiet.p50)}, p99 ${ms(quiet.p99)} (${quiet.count}, ${quiet.errors} errors; probe loop delay p99 ${ms(quiet.loopDelayP99Ms)})`,
);
console.log(
  `tenant B reads, soak:  p50 ${ms(loaded.p50)}, p99 ${ms(loaded.p99)} (${loaded.count}, ${loaded.errors} errors; probe loop delay p99 ${ms(loaded.loopDelayP99Ms)})`,
);
console.log(`tenant A: ${JSON.stringify(tally)}`);
console.log(`the soak client's own loop delay (5 ms resolution): quiet ${quietDelay}; soak ${loadedDelay}`);
const loads = sampler.samples.map((sample) => sample.load);
console.log(
  `load average (1 min) during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}, at the end ${loadavg()[0]!.toFixed(1)}`,
);
for (const line of formatSamples(sampler.samples)) console.log(line);
process.exit(0);
