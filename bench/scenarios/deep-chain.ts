// Scenario 3, deep chain: Response.context at the end of a 1,000-response chain, with the number
// of SQL statements it costs at depth 10 and at depth 1,000 (it must not grow with depth).
import { onStatement } from "../../src/db/statement-log.js";
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { createResponse } from "../../src/services/responses.js";
import { emit, smoke } from "../lib/report.js";
import { store } from "../lib/store.js";
import { graphql, startInProcessServer } from "../lib/server.js";
import { timeQuery } from "../lib/timed-query.js";

const DEPTH = smoke ? 100 : 1_000;
const ITERATIONS = smoke ? 5 : 30;

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
const latency = await timeQuery(server.url, CONTEXT, { id: tips[DEPTH]! }, ITERATIONS);
await server.close();

emit([
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
