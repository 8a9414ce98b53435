// Scenario 3, deep chain: Response.context at the end of a 1,000-response chain, with the number
// of SQL statements it costs at depth 10 and at depth 1,000 (it must not grow with depth). Peer:
// the yoga + `pg` server (bench/peer/yoga-pg.ts) answering the same document with a recursive CTE
// over the chain, interleaved with dialogql.
import { onStatement } from "../../src/statement-log.js";
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { createResponse } from "../../src/services/responses.js";
import { emit, smoke } from "../lib/report.js";
import { analyze } from "../lib/analyze.js";
import { PEER_NAME, startPeer } from "../lib/peer.js";
import { store } from "../lib/store.js";
import { graphql, startInProcessServer } from "../lib/server.js";
import { interleaved } from "../lib/timed-query.js";

const DEPTH = smoke ? 100 : 1_000;
const ITERATIONS = smoke ? 5 : 10;
const REPS = smoke ? 1 : 3;

const server = await startInProcessServer();
let statements = 0;
onStatement(() => statements++);

const tips: Record<number, string> = {};
let previousResponseId: string | undefined;
for (let depth = 1; depth <= DEPTH; depth++) {
  const written = await createResponse(
    store,
    {
      previousResponseId,
      input: [{ human: { content: `Turn ${depth}` } }],
      output: [{ ai: { content: `Answer ${depth}` } }],
    },
    DEVELOPMENT_TENANT,
  );
  previousResponseId = written.responseId;
  if (depth === 10 || depth === DEPTH) tips[depth] = written.responseId;
}

const CONTEXT = `query($id: ID!) { response(id: $id) { context(first: 10000) { totalMessages
  edges { node { __typename ... on BaseHistoryEvent { seq } ... on HumanEvent { content } ... on AiEvent { content } } } } } }`;
const readContext = (id: string) => () => graphql(server.url, CONTEXT, { id });

async function statementsFor(id: string) {
  statements = 0;
  await readContext(id)();
  return statements;
}
await readContext(tips[10]!)(); // the first request of a process also looks up whether API keys exist
const shallowStatements = await statementsFor(tips[10]!);
const deepStatements = await statementsFor(tips[DEPTH]!);
await analyze();
const peer = await startPeer();
const run = (url: string) => ({ url, query: CONTEXT, variables: { id: tips[DEPTH]! }, iterations: ITERATIONS });
const [latency, peerLatency] = await interleaved(REPS, [run(server.url), run(peer.url)]);
const peerAnswer = await graphql(peer.url, CONTEXT, { id: tips[DEPTH]! });
if (peerAnswer.response.context.totalMessages !== DEPTH * 2) throw new Error("the peer's context differs");
await peer.close();
await server.close();

emit([
  {
    scenario: "deep chain",
    metric: `context at depth ${DEPTH.toLocaleString("en")}, 1 client, p50`,
    value: Number(latency.p50.toFixed(2)),
    unit: "ms",
    baseline: Number(peerLatency.p50.toFixed(2)),
    peer: PEER_NAME,
    ratio: Number((latency.p50 / peerLatency.p50).toFixed(2)),
    target: "≤ 1.2×",
    met: latency.p50 / peerLatency.p50 <= 1.2,
    goal: true,
  },
  {
    scenario: "deep chain",
    metric: `Response.context at depth ${DEPTH} p50`,
    value: Number(latency.p50.toFixed(2)),
    unit: "ms",
    target: "≤ 50 ms",
    met: latency.p50 <= 50,
  },
  {
    scenario: "deep chain",
    metric: `SQL statements at depth 10 / ${DEPTH}`,
    value: deepStatements,
    unit: "statements",
    baseline: shallowStatements,
    ratio: deepStatements / shallowStatements,
    target: "same at any depth",
    met: deepStatements === shallowStatements,
  },
]);
