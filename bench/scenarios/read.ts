// Scenario 2, read: a dialog of 10,000 events. The first page of 100 and the whole history
// through Dialog.history over HTTP, against the same context query run raw plus JSON.stringify.
import { database, store } from "../lib/store.js";
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { contextPageStatement } from "../../src/services/context.js";
import { createResponse } from "../../src/services/responses.js";
import { emit, smoke } from "../lib/report.js";
import { startInProcessServer } from "../lib/server.js";
import { timeQuery } from "../lib/timed-query.js";
import { summarize, timeEach } from "../lib/stats.js";

const EVENTS = smoke ? 1_000 : 10_000;
const PER_TURN = 100;
const ITERATIONS = smoke ? 5 : 40;

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

const FIELDS = `totalMessages edges { cursor node { __typename ... on BaseHistoryEvent { id seq type createdAt }
  ... on HumanEvent { content } ... on AiEvent { content } ... on ReasoningEvent { content modelName }
  ... on ToolCallEvent { callId toolName args } } }`;
// Timed from a client in another process, like every other scenario's load.
const page = (first: number, iterations: number) =>
  timeQuery(
    server.url,
    `query($id: ID!) { dialog(id: $id) { history(first: ${first}) { ${FIELDS} } } }`,
    { id: dialogId! },
    iterations,
  );

const firstPage = await page(100, ITERATIONS);
const whole = await page(EVENTS, Math.ceil(ITERATIONS / 2));

// Raw: the statement the service runs for the same page, the same rows, serialised once.
const raw = (limit: number) => () => {
  const statement = contextPageStatement(headId, { limit, inverted: false });
  return database.withSession(async (s) => JSON.stringify(await s.query(statement.text, statement.values)));
};
const rawFirstPage = summarize(await timeEach(ITERATIONS, raw(100)));
const rawWhole = summarize(await timeEach(Math.ceil(ITERATIONS / 2), raw(EVENTS)));
await server.close();

const ratio = whole.p50 / rawWhole.p50;
emit([
  {
    scenario: "read",
    metric: `first page of 100 (of ${EVENTS}) p50`,
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
    ratio: round(ratio),
    target: "≤ 150 ms, ratio ≤ 3",
    met: whole.p50 <= 150 && ratio <= 3,
  },
]);

function round(n: number, digits = 2) {
  return Number(n.toFixed(digits));
}
