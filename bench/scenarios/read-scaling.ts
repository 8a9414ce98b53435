// Scenario: does a page cost the same however long the chain? The first page of 100 of
// Dialog.history (the head's context) in dialogs of 1,000 events in 100 responses, 10,000 in
// 1,000 and 100,000 in 10,000 (10 events a response), timed from a client in another process.
// Target (issue 12): the page at 100,000 events within 1.5× of the page at 1,000.
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { createResponse } from "../../src/services/responses.js";
import { emit, smoke } from "../lib/report.js";
import { store } from "../lib/store.js";
import { startInProcessServer } from "../lib/server.js";
import { timeQuery } from "../lib/timed-query.js";

const PER_RESPONSE = 10;
// Smoke runs stop at 10,000 events: the 100,000 dialog takes most of a minute to write.
const SIZES = smoke ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const ITERATIONS = smoke ? 10 : 40;

const server = await startInProcessServer();

async function writeDialog(events: number) {
  let dialogId: string | undefined;
  for (let turn = 0; turn < events / PER_RESPONSE; turn++) {
    const output = Array.from({ length: PER_RESPONSE - 1 }, (_, i) =>
      i % 2 === 0
        ? { ai: { content: `Part ${i} of answer ${turn}.` } }
        : { toolCall: { callId: `call_${turn}_${i}`, toolName: "search", args: { q: `query ${i}` } } },
    );
    const written = await createResponse(
      store,
      { dialogId, input: [{ human: { content: `Question ${turn}` } }], output },
      DEVELOPMENT_TENANT,
    );
    dialogId = written.dialogId;
  }
  return dialogId!;
}

const FIELDS = `totalMessages totalToolCalls edges { cursor node { __typename ... on BaseHistoryEvent { id seq type }
  ... on HumanEvent { content } ... on AiEvent { content } ... on ToolCallEvent { callId toolName args } } }`;

const pages: { events: number; p50: number; p99: number }[] = [];
for (const events of SIZES) {
  const dialogId = await writeDialog(events);
  const timed = await timeQuery(
    server.url,
    `query($id: ID!) { dialog(id: $id) { eventCount history(first: 100) { ${FIELDS} } } }`,
    { id: dialogId },
    ITERATIONS,
  );
  pages.push({ events, p50: timed.p50, p99: timed.p99 });
}
await server.close();

const base = pages[0]!.p50;
emit(
  pages.map(({ events, p50 }) => ({
    scenario: "read-scaling",
    metric: `first page of 100 at ${events.toLocaleString("en")} events / ${(events / PER_RESPONSE).toLocaleString("en")} responses p50`,
    value: round(p50),
    unit: "ms",
    baseline: round(base),
    ratio: round(p50 / base),
    ...(events === 100_000 && { target: "≤ 1.5 × the page at 1,000", met: p50 / base <= 1.5 }),
  })),
);

function round(n: number, digits = 2) {
  return Number(n.toFixed(digits));
}
