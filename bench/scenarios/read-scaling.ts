// Scenario: does a page cost the same however long the chain? The first page of 100 of
// Dialog.history (the head's context) in dialogs of 1,000 events in 100 responses, 10,000 in
// 1,000 and 100,000 in 10,000 (10 events a response), timed from a client in another process.
// Target (issue 12): the page at 100,000 events within 1.5× of the page at 1,000. The yoga + `pg`
// peer (bench/peer/yoga-pg.ts) reads the same pages, interleaved with dialogql (issue 20: within
// 1.2× of it at every size).
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { createResponse } from "../../src/services/responses.js";
import { emit, smoke } from "../lib/report.js";
import { analyze } from "../lib/analyze.js";
import { PEER_NAME, startPeer } from "../lib/peer.js";
import { store } from "../lib/store.js";
import { startInProcessServer } from "../lib/server.js";
import { interleaved } from "../lib/timed-query.js";

const PER_RESPONSE = 10;
// Smoke runs stop at 10,000 events: the 100,000 dialog takes most of a minute to write.
const SIZES = smoke ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const ITERATIONS = smoke ? 10 : 15;
const REPS = smoke ? 1 : 3;

const server = await startInProcessServer();
const peer = await startPeer();

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

// The totals dialogql counts in one statement whichever are selected; the peer has only this one.
const FIELDS = `totalMessages edges { cursor node { __typename ... on BaseHistoryEvent { id seq type }
  ... on HumanEvent { content } ... on AiEvent { content } ... on ToolCallEvent { callId toolName args } } }`;
const QUERY = `query($id: ID!) { dialog(id: $id) { eventCount history(first: 100) { ${FIELDS} } } }`;

const pages: { events: number; p50: number; peer: number }[] = [];
for (const events of SIZES) {
  const dialogId = await writeDialog(events);
  await analyze();
  const run = (url: string) => ({ url, query: QUERY, variables: { id: dialogId }, iterations: ITERATIONS });
  const [service, peerPage] = await interleaved(REPS, [run(server.url), run(peer.url)]);
  pages.push({ events, p50: service.p50, peer: peerPage.p50 });
}
await peer.close();
await server.close();

const first = pages[0]!;
const last = pages.at(-1)!;
const size = (events: number) => events.toLocaleString("en");
emit([
  ...pages.map(({ events, p50, peer }) => ({
    scenario: "read-scaling",
    metric: `first page of 100 at ${size(events)} events / ${size(events / PER_RESPONSE)} responses p50`,
    value: round(p50),
    unit: "ms",
    baseline: round(peer),
    peer: PEER_NAME,
    ratio: round(p50 / peer),
    target: "≤ 1.2×",
    met: p50 / peer <= 1.2,
    goal: events === last.events,
  })),
  {
    scenario: "read-scaling",
    metric: `first page of 100, p50 at ${size(last.events)} ÷ at ${size(first.events)} events`,
    value: round(last.p50 / first.p50),
    unit: "×",
    baseline: round(last.peer / first.peer),
    peer: PEER_NAME,
    target: "≤ 1.5 (constant in history size)",
    met: last.p50 / first.p50 <= 1.5,
    goal: true,
  },
]);

function round(n: number, digits = 2) {
  return Number(n.toFixed(digits));
}
