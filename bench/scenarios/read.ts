// Scenario 2, read: a dialog of 10,000 events. Its first page of 100 and its whole history through
// Dialog.history over HTTP, from clients in another process, against two peers: the yoga + `pg`
// server (bench/peer/yoga-pg.ts) answering the same document over the same rows, and the context
// statement dialogql runs, raw, plus JSON.stringify. One client's latency and 16 clients' are
// measured, and a small query's latency while 16 clients read whole histories (a large answer
// must not block the event loop for everyone else). dialogql and its peer are interleaved.
import { database, store } from "../lib/store.js";
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { contextPageStatement } from "../../src/services/context.js";
import { createResponse } from "../../src/services/responses.js";
import { graphql } from "../lib/graphql-client.js";
import { analyze } from "../lib/analyze.js";
import { PEER_NAME, startPeer } from "../lib/peer.js";
import { emit, smoke, type Figure } from "../lib/report.js";
import { startInProcessServer } from "../lib/server.js";
import { summarize, timeEach } from "../lib/stats.js";
import { interleaved, type LoadRun, underLoad } from "../lib/timed-query.js";

const EVENTS = smoke ? 1_000 : 10_000;
const PER_TURN = 100;
const REPS = smoke ? 1 : 3;
const ITERATIONS = smoke ? 5 : 15;
const WHOLE_ITERATIONS = smoke ? 3 : 5;
const CLIENTS = 16;
const LOAD_MS = smoke ? 1_000 : 2_000;
const HEAVY_LOAD_MS = smoke ? 2_000 : 6_000;

const server = await startInProcessServer();

// 100 events per turn: one human question, then reasoning, AI text and tool calls.
let dialogId: string | undefined;
let headId = "";
for (let turn = 0; turn < EVENTS / PER_TURN; turn++) {
  const output = Array.from({ length: PER_TURN - 1 }, (_, i) =>
    i % 3 === 0
      ? { reasoning: { content: `Thinking about step ${i} of turn ${turn}. `.repeat(8), modelName: "bench-model" } }
      : i % 3 === 1
        ? { ai: { content: `Here is part ${i} of the answer to question ${turn}.` } }
        : { toolCall: { callId: `call_${turn}_${i}`, toolName: "search", args: { q: `query ${i}`, page: 1 } } },
  );
  const written = await createResponse(
    store,
    { dialogId, input: [{ human: { content: `Question ${turn}` } }], output },
    DEVELOPMENT_TENANT,
  );
  dialogId = written.dialogId;
  headId = written.responseId;
}
await analyze();
const peer = await startPeer();

const FIELDS = `totalMessages edges { cursor node { __typename ... on BaseHistoryEvent { id seq type createdAt }
  ... on HumanEvent { content } ... on AiEvent { content } ... on ReasoningEvent { content modelName }
  ... on ToolCallEvent { callId toolName args } } }`;
const page = (url: string, first: number, more: Partial<LoadRun>): LoadRun => ({
  url,
  query: `query($id: ID!) { dialog(id: $id) { history(first: ${first}) { ${FIELDS} } } }`,
  variables: { id: dialogId! },
  ...more,
});

// The peer must answer with the same rows, or its figures mean nothing.
const answers = await Promise.all(
  [server.url, peer.url].map((url) => graphql(url, page(url, EVENTS, {}).query, { id: dialogId })),
);
const ids = answers.map((a) => a.dialog.history.edges.map((e: any) => e.node.id).join());
if (ids[0] !== ids[1] || answers[1].dialog.history.edges.length !== EVENTS)
  throw new Error("the peer's history differs");

const [firstPage, peerFirstPage, whole, peerWhole] = await interleaved(REPS, [
  page(server.url, 100, { iterations: ITERATIONS }),
  page(peer.url, 100, { iterations: ITERATIONS }),
  page(server.url, EVENTS, { iterations: WHOLE_ITERATIONS }),
  page(peer.url, EVENTS, { iterations: WHOLE_ITERATIONS }),
]);
const [manyFirstPage, peerManyFirstPage] = await interleaved(REPS, [
  page(server.url, 100, { concurrency: CLIENTS, durationMs: LOAD_MS }),
  page(peer.url, 100, { concurrency: CLIENTS, durationMs: LOAD_MS }),
]);
// Whole histories for 16 clients, with one more client asking for a first page of 100 meanwhile.
const loaded = async (url: string) =>
  underLoad(page(url, EVENTS, { concurrency: CLIENTS, durationMs: HEAVY_LOAD_MS }), page(url, 100, {}));
const busy = await loaded(server.url);
const peerBusy = await loaded(peer.url);
await peer.close();

// Raw: the statement the service runs for the same page, the same rows, serialised once.
const raw = (limit: number) => () => {
  const statement = contextPageStatement(headId, { limit, inverted: false });
  return database.withSession(async (s) => JSON.stringify(await s.query(statement.text, statement.values)));
};
const rawFirstPage = summarize(await timeEach(ITERATIONS, raw(100)));
const rawWhole = summarize(await timeEach(WHOLE_ITERATIONS, raw(EVENTS)));
await server.close();

const ofEvents = `of ${EVENTS.toLocaleString("en")} events`;
const vsPeer = (
  metric: string,
  value: number,
  peerValue: number,
  unit: string,
  target: number,
  higherIsBetter = false,
) =>
  ({
    scenario: "read",
    metric,
    value: round(value),
    unit,
    baseline: round(peerValue),
    peer: PEER_NAME,
    ratio: round(value / peerValue),
    target: `${higherIsBetter ? "≥" : "≤"} ${target}×`,
    met: higherIsBetter ? value / peerValue >= target : value / peerValue <= target,
    goal: true,
  }) satisfies Figure;
const wholeRatio = whole.p50 / rawWhole.p50;
emit([
  vsPeer(`first 100 ${ofEvents}, 1 client, p50`, firstPage.p50, peerFirstPage.p50, "ms", 1.2),
  // ≤ 1.2× the peer's time per answer is ≥ 1 / 1.2 of its throughput.
  vsPeer(`first 100 ${ofEvents}, 16 clients, throughput`, manyFirstPage.throughput, peerManyFirstPage.throughput, "/s", 0.83, true), // prettier-ignore
  vsPeer(`all ${EVENTS.toLocaleString("en")} events, 1 client, p50`, whole.p50, peerWhole.p50, "ms", 1.2),
  vsPeer(`all ${EVENTS.toLocaleString("en")} events, 16 clients, p99`, busy.heavy.p99, peerBusy.heavy.p99, "ms", 1.0),
  {
    scenario: "read",
    metric: `first 100 (1 client) while 16 read all ${EVENTS.toLocaleString("en")}, p99`,
    value: round(busy.probe.p99),
    unit: "ms",
    baseline: round(peerBusy.probe.p99),
    peer: PEER_NAME,
    ratio: round(busy.probe.p99 / peerBusy.probe.p99),
    target: "< 50 ms",
    met: busy.probe.p99 < 50,
    goal: true,
    note: `${busy.probe.count} answers, p50 ${round(busy.probe.p50)} ms`,
  },
  {
    scenario: "read",
    metric: `first page of 100 (${ofEvents}) p50`,
    value: round(firstPage.p50),
    unit: "ms",
    baseline: round(rawFirstPage.p50),
    ratio: round(firstPage.p50 / rawFirstPage.p50),
    target: "≤ 10 ms",
    met: firstPage.p50 <= 10,
  },
  {
    scenario: "read",
    metric: `whole history (${EVENTS} events) p50`,
    value: round(whole.p50),
    unit: "ms",
    baseline: round(rawWhole.p50),
    ratio: round(wholeRatio),
    target: "≤ 150 ms, ratio ≤ 3",
    met: whole.p50 <= 150 && wholeRatio <= 3,
  },
]);

function round(n: number, digits = 2) {
  return Number(n.toFixed(digits));
}
