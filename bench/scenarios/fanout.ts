// Scenario 4, fan-out: SUBSCRIBERS graphql-ws subscribers to one dialog on one instance (the
// clients in another process); each write's delta must reach every one of them, once. Baseline:
// a raw `ws` server broadcasting a payload of the same shape to the same number of sockets.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { WebSocketServer } from "ws";
import { startServer } from "../../src/server/http-server.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { metrics } from "../../src/metrics.js";
import { closeDatabase, config, database, store } from "../lib/store.js";
import { spawnIpcChild } from "../lib/ipc-child.js";
import { emit, smoke, type Figure } from "../lib/report.js";
import { graphql } from "../lib/server.js";

const SUBSCRIBERS = Number(process.env.FANOUT_SUBSCRIBERS ?? (smoke ? 200 : 5_000));
const WRITES = smoke ? 5 : 20;
const SPACING_MS = smoke ? 100 : 300;
const here = path.dirname(new URL(import.meta.url).pathname);
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Heap plus native buffers after full collections: what the subscriptions themselves hold.
// (RSS moves with PGlite's WASM memory and with pages the allocator has not returned yet.)
// One gc() is not enough: native buffers (PGlite's, hundreds of MB after the migrations) are
// released a collection or two later, so a single reading before the sockets opened could be
// hundreds of MB too high and make the per-socket figure negative. Collect until it stops shrinking.
async function memoryAfterGc() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc (npm run bench does)");
  const reading = () => process.memoryUsage().heapUsed + process.memoryUsage().external;
  let previous = Infinity;
  for (let round = 0; round < 10; round++) {
    await sleep(200);
    gc();
    const current = reading();
    if (current > previous - 1_048_576) return Math.min(current, previous);
    previous = current;
  }
  return previous;
}

// Resident memory, as the operating system counts it, after the same collections: what issue 20
// asks of idle subscriptions (heap and native buffers miss allocator overhead and pages the
// allocator keeps), and whether it comes back once they close.
async function rssAfterGc() {
  await memoryAfterGc();
  return process.memoryUsage.rss();
}

/** Waits until this process holds at most `count` TCP sockets (the subscribers' have closed). */
async function socketsDownTo(count: number) {
  const open = () => process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
  for (let waited = 0; open() > count && waited < 30_000; waited += 50) await sleep(50);
}

const phase = (what: string) => process.stderr.write(`[fanout] ${what}\n`);

interface Delivery {
  p50: number;
  p99: number;
  lost: number;
  duplicated: number;
  writes: number;
  count: number;
}

// The embedded database starts with the process; let it finish before any memory is measured.
await applyMigrations(database);

// Raw baseline first (a clean process to measure memory in): the same number of sockets, one
// JSON message of the same shape per write.
const broadcaster = new WebSocketServer({ port: 0, host: "127.0.0.1" });
await new Promise((resolve) => broadcaster.once("listening", resolve));
broadcaster.on("connection", (socket) => socket.send(JSON.stringify({ seq: 2 })));
const rawBefore = await memoryAfterGc();
const rawRssBefore = await rssAfterGc();
const rawSubscribers = spawnIpcChild(path.join(here, "../load/ws-subscribers.ts"), {
  WS_URL: `ws://127.0.0.1:${(broadcaster.address() as { port: number }).port}`,
  SUBSCRIBERS: String(SUBSCRIBERS),
  MODE: "raw",
  DIALOG_ID: "raw",
  AFTER_SEQ: "1",
});
await rawSubscribers.next("ready");
phase("raw ws subscribers live");
await sleep(1_000);
const rawPerSocketKb = ((await memoryAfterGc()) - rawBefore) / SUBSCRIBERS / 1024;
const rawRssPerSocketKb = ((await rssAfterGc()) - rawRssBefore) / SUBSCRIBERS / 1024;
// CPU time of this process while it delivers (user + system, ms per delta): unlike latencies, it
// hardly moves when other processes share the cores.
const rawCpuStart = process.cpuUsage();
for (let i = 0; i < WRITES; i++) {
  const seq = 10 + i * 2;
  const message = JSON.stringify({
    id: "1",
    type: "next",
    payload: { data: { historyDelta: sampleDelta("raw", seq) } },
    seq,
  });
  const at = now();
  for (const socket of broadcaster.clients) socket.send(message);
  rawSubscribers.send({ type: "committed", seq, at });
  await sleep(SPACING_MS);
}
await sleep(1_000);
const rawCpu = cpuMsPerDelta(rawCpuStart);
rawSubscribers.send({ type: "finish" });
const raw = await rawSubscribers.next<Delivery>("result");
broadcaster.close();

// dialogql: writes through GraphQL over HTTP (the resolver publishes after commit).
const server = await startServer({ store, config, port: 0 });
const graphqlUrl = `${server.url}/graphql`;
const WRITE = `mutation($input: CreateResponseInput!) { createResponse(input: $input) {
  ... on Response { dialog { id } output { ... on BaseHistoryEvent { seq } } } } }`;
const write = async (input: Record<string, unknown>) => {
  const data = await graphql(graphqlUrl, WRITE, { input });
  return { dialogId: data.createResponse.dialog.id as string, seq: data.createResponse.output.at(-1).seq as number };
};
const { dialogId } = await write({ input: [{ human: { content: "Hello" } }], output: [{ ai: { content: "Hi" } }] });

// Latency counts from the publish, which the resolver does right after the commit.
const publishedAt = new Map<number, number>();
const publish = server.live.publish.bind(server.live);
server.live.publish = (payload) => {
  if ("seq" in payload) publishedAt.set(payload.seq, now());
  publish(payload);
};

const before = await memoryAfterGc();
const socketsBefore = process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
const rssBefore = await rssAfterGc();
const subscribers = spawnIpcChild(path.join(here, "../load/ws-subscribers.ts"), {
  WS_URL: graphqlUrl.replace("http", "ws"),
  SUBSCRIBERS: String(SUBSCRIBERS),
  MODE: "graphql-ws",
  DIALOG_ID: dialogId,
  AFTER_SEQ: "1",
});
await subscribers.next("ready");
phase("graphql-ws subscribers live");
await sleep(1_000);
const perSubscriberKb = ((await memoryAfterGc()) - before) / SUBSCRIBERS / 1024;
const rssOpen = await rssAfterGc();

// FANOUT_CPU_PROFILE=file.cpuprofile: a CPU profile of the server process while it delivers (not
// while subscribers connect), to see what each delta costs per subscriber.
const profiler = process.env.FANOUT_CPU_PROFILE ? await startProfiler() : null;
const cpuStart = process.cpuUsage();
const directBefore = await writtenDirectly();
for (let i = 0; i < WRITES; i++) {
  const { seq } = await write({
    dialogId,
    input: [{ human: { content: `Question ${i}` } }],
    output: [{ ai: { content: `Answer ${i}` } }],
  });
  subscribers.send({ type: "committed", seq, at: publishedAt.get(seq)! });
  await sleep(SPACING_MS);
}
await sleep(1_000);
const serviceCpu = cpuMsPerDelta(cpuStart);
const direct = (await writtenDirectly()) - directBefore;
await profiler?.stop(process.env.FANOUT_CPU_PROFILE!);
subscribers.send({ type: "finish" });
const service = await subscribers.next<Delivery>("result");
await socketsDownTo(socketsBefore);
phase("graphql-ws subscribers closed");
const rssClosed = await rssAfterGc();
await server.close();
await closeDatabase();

const r = (n: number) => Number(n.toFixed(1));
const rssPerSubscriberKb = (rssOpen - rssBefore) / SUBSCRIBERS / 1024;
const rssReturned = (rssOpen - rssClosed) / (rssOpen - rssBefore);
const vsRaw = (metric: string, value: number, rawValue: number) =>
  ({
    scenario: "fan-out",
    metric,
    value: r(value),
    unit: "ms",
    baseline: r(rawValue),
    peer: "raw ws",
    ratio: r(value / rawValue),
    target: "≤ 1.5×",
    met: value / rawValue <= 1.5,
    goal: true,
  }) satisfies Figure;
const figures: Figure[] = [
  vsRaw(`delivery to ${SUBSCRIBERS.toLocaleString("en")} subscribers, p50`, service.p50, raw.p50),
  vsRaw(`delivery to ${SUBSCRIBERS.toLocaleString("en")} subscribers, p99`, service.p99, raw.p99),
  {
    scenario: "fan-out",
    metric: "RSS per idle subscription",
    value: r(rssPerSubscriberKb),
    unit: "KB",
    baseline: r(rawRssPerSocketKb),
    peer: "raw ws",
    ratio: rawRssPerSocketKb > 0 ? r(rssPerSubscriberKb / rawRssPerSocketKb) : undefined,
    target: "≤ 25 KB",
    met: rssPerSubscriberKb <= 25,
    goal: true,
  },
  {
    scenario: "fan-out",
    metric: "RSS given back once they close",
    value: Math.round(rssReturned * 100),
    unit: "%",
    target: "≥ 80 %",
    met: rssReturned >= 0.8,
    goal: true,
    note: `${r((rssOpen - rssBefore) / 2 ** 20)} MB added by the subscriptions, ${r((rssClosed - rssBefore) / 2 ** 20)} MB still held after they closed`,
  },
  {
    scenario: "fan-out",
    metric: `delivery p50, ${SUBSCRIBERS} subscribers`,
    value: r(service.p50),
    unit: "ms",
    baseline: r(raw.p50),
    ratio: r(service.p50 / raw.p50),
    target: "≤ 50 ms",
    met: service.p50 <= 50,
  },
  {
    scenario: "fan-out",
    metric: `delivery p99, ${SUBSCRIBERS} subscribers`,
    value: r(service.p99),
    unit: "ms",
    baseline: r(raw.p99),
    ratio: r(service.p99 / raw.p99),
    target: "≤ 250 ms",
    met: service.p99 <= 250,
  },
  {
    scenario: "fan-out",
    metric: "server CPU per delta (user + system)",
    value: r(serviceCpu),
    unit: "ms",
    baseline: r(rawCpu),
    ratio: r(serviceCpu / rawCpu),
    note: `includes the write itself (HTTP, SQL); ${Math.round((100 * direct) / (service.writes * SUBSCRIBERS))} % of the messages written by the broadcast loop (src/live/direct-delivery.ts)`,
  },
  {
    scenario: "fan-out",
    metric: `deltas lost + duplicated (of ${service.writes * SUBSCRIBERS})`,
    value: service.lost + service.duplicated,
    unit: "",
    baseline: raw.lost + raw.duplicated,
    target: "0",
    met: service.lost + service.duplicated === 0,
  },
  {
    scenario: "fan-out",
    metric: "idle memory per subscriber",
    value: r(perSubscriberKb),
    unit: "KB",
    baseline: r(rawPerSocketKb),
    ratio: rawPerSocketKb > 0 ? r(perSubscriberKb / rawPerSocketKb) : undefined,
    target: "≤ 50 KB",
    met: perSubscriberKb <= 50,
  },
];
emit(figures);
process.exit(0);

function cpuMsPerDelta(since: NodeJS.CpuUsage) {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000 / WRITES;
}

async function writtenDirectly() {
  // (Absent from builds before the loop existed, which this scenario also measures.)
  const counter = (metrics as Partial<typeof metrics>).deltasWrittenDirectly;
  return counter ? ((await counter.get()).values[0]?.value ?? 0) : 0;
}

async function startProfiler() {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop(file: string) {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

function sampleDelta(dialog: string, seq: number) {
  const event = (type: string, s: number, content: string) => ({
    __typename: type === "HUMAN" ? "HumanEvent" : "AiEvent",
    id: `evt_01KBENCHMARKEVENT${s}`,
    seq: s,
    type,
    createdAt: new Date().toISOString(),
    content,
  });
  return {
    dialogId: dialog,
    responseId: "resp_01KBENCHMARKRESPONSE00000",
    seq,
    previousSeq: seq - 2,
    status: "COMPLETED",
    append: [event("HUMAN", seq - 1, `Question ${seq}`), event("AI", seq, `Answer ${seq}`)],
  };
}
