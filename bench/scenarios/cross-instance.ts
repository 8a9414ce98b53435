// Scenario 5, cross-instance: two dialogql instances sharing the database and Redis. Subscribers
// (in another process) listen on instance A; the same writes are made first through A, then
// through B. The delivery p99 through B may be at most 10 ms above the one through A.
import path from "node:path";
import { applyMigrations } from "../../src/db/migrate.js";
import { closeDatabase, config, database, store } from "../lib/store.js";
import { startServer } from "../../src/server/http-server.js";
import { spawnIpcChild } from "../lib/ipc-child.js";
import { emit, smoke } from "../lib/report.js";
import { graphql } from "../lib/server.js";

const SUBSCRIBERS = smoke ? 100 : 1_000;
const WRITES = smoke ? 5 : 30;
const here = path.dirname(new URL(import.meta.url).pathname);
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const redisUrl = process.env.REDIS_URL;
if (!redisUrl) throw new Error("cross-instance needs BENCH_REDIS_URL");

await applyMigrations(database);
// Both instances in this process share its database connection; each has its own Redis clients.
const a = await startServer({ store, config, port: 0, redisUrl });
const b = await startServer({ store, config, port: 0, redisUrl });
const WRITE = `mutation($input: CreateResponseInput!) { createResponse(input: $input) {
  ... on Response { dialog { id } output { ... on BaseHistoryEvent { seq } } } } }`;
const write = async (url: string, input: Record<string, unknown>) => {
  const data = await graphql(`${url}/graphql`, WRITE, { input });
  return { dialogId: data.createResponse.dialog.id as string, seq: data.createResponse.output.at(-1).seq as number };
};

const publishedAt = new Map<number, number>();
for (const server of [a, b]) {
  const publish = server.live.publish.bind(server.live);
  server.live.publish = (payload) => {
    if ("seq" in payload) publishedAt.set(payload.seq, now());
    publish(payload);
  };
}

async function measure(writer: string) {
  const { dialogId } = await write(a.url, {
    input: [{ human: { content: "Hello" } }],
    output: [{ ai: { content: "Hi" } }],
  });
  const subscribers = spawnIpcChild(path.join(here, "../load/ws-subscribers.ts"), {
    WS_URL: `${a.url.replace("http", "ws")}/graphql`,
    SUBSCRIBERS: String(SUBSCRIBERS),
    MODE: "graphql-ws",
    DIALOG_ID: dialogId,
    AFTER_SEQ: "1",
  });
  await subscribers.next("ready");
  for (let i = 0; i < WRITES; i++) {
    const { seq } = await write(writer, {
      dialogId,
      input: [{ human: { content: `Q${i}` } }],
      output: [{ ai: { content: `A${i}` } }],
    });
    subscribers.send({ type: "committed", seq, at: publishedAt.get(seq)! });
    await sleep(200);
  }
  await sleep(1_000);
  subscribers.send({ type: "finish" });
  return subscribers.next<{ p50: number; p99: number; lost: number; duplicated: number }>("result");
}

const sameInstance = await measure(a.url);
const otherInstance = await measure(b.url);
await a.close();
await b.close();
await closeDatabase();

const r = (n: number) => Number(n.toFixed(1));
emit([
  {
    scenario: "cross-instance",
    metric: `delivery p99 via Redis, ${SUBSCRIBERS} subscribers, writes on the other instance`,
    value: r(otherInstance.p99),
    unit: "ms",
    baseline: r(sameInstance.p99),
    note: "baseline: writes on the subscribers' own instance",
    target: "≤ baseline + 10 ms",
    met: otherInstance.p99 <= sameInstance.p99 + 10,
  },
  {
    scenario: "cross-instance",
    metric: "deltas lost + duplicated",
    value: otherInstance.lost + otherInstance.duplicated + sameInstance.lost + sameInstance.duplicated,
    unit: "",
    target: "0",
    met: otherInstance.lost + otherInstance.duplicated + sameInstance.lost + sameInstance.duplicated === 0,
  },
]);
process.exit(0);
