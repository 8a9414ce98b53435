// Scenario: what matching a Chat Completions request to its stored chain costs. A chat of
// MESSAGES - 1 messages (a system prompt and question/answer pairs) is stored as a chain of
// responses (imported as chat messages, so every response gets its chat hash from the write
// primitive); then POST /v1/chat/completions is sent, one at a time, with MESSAGES messages —
// side by side:
// - matched: the stored chat plus one new question (the turn continues the chain, its input is one
//   message);
// - unmatched: the same number of messages under another system prompt (nothing matches: a new
//   dialog whose turn holds every message).
// Both compute the request's prefix hashes and run the lookup; the figure is the p50 end-to-end
// latency of matched minus unmatched (target: matching adds ≤ 2 ms). The matching step alone
// (hashes and the one query) is reported for both, measured in this process.
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { createModelCatalog } from "../../src/generation/providers.js";
import { hashedView, requestEvents } from "../../src/responses-api/recorded-turn.js";
import { startServer } from "../../src/server/http-server.js";
import { matchChatContext } from "../../src/services/chat-match.js";
import { importMessages } from "../../src/services/import-messages.js";
import { startUpstreamStandIn } from "../../test/support/upstream-stand-in.js";
import { emit, smoke } from "../lib/report.js";
import { percentile } from "../lib/stats.js";
import { closeDatabase, config, database, store } from "../lib/store.js";

const MESSAGES = smoke ? 100 : 1_000;
const ROUNDS = smoke ? 5 : 40;
const IMPORT_MESSAGES = 800; // under MAX_EVENTS_PER_WRITE

await applyMigrations(database);
const upstream = await startUpstreamStandIn();
upstream.fallback = { output: [{ text: "A short answer." }], usage: { input: 100, output: 5 } };
const server = await startServer({
  store,
  config,
  port: 0,
  models: createModelCatalog({ OPENAI_BASE_URL: upstream.url, UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0 }),
});

const chat = (system: string) => [
  { role: "system", content: system },
  ...Array.from({ length: (MESSAGES - 2) / 2 + 1 }, (_, i) => [
    { role: "user", content: `Question ${i}: what comes after ${i}?` },
    { role: "assistant", content: `After ${i} comes ${i + 1}.` },
  ]).flat(),
];
const stored = chat("You count.").slice(0, MESSAGES - 1);
let tip: string | null = null;
// Each import ends with an answer: a question left waiting would be an IN_PROGRESS turn, and a
// chain through a turn in progress is never matched.
for (let from = 0, to = IMPORT_MESSAGES - 1; from < stored.length; from = to, to += IMPORT_MESSAGES) {
  const result: { responseIds: string[] } = await importMessages(store, {
    format: "OPENAI_CHAT",
    messages: stored.slice(from, to),
    previousResponseId: tip,
    tenantId: DEVELOPMENT_TENANT,
  });
  tip = result.responseIds.at(-1)!;
}
const matched = [...stored, { role: "user", content: "And after that?" }];
const unmatched = [
  ...chat("You count backwards.").slice(0, MESSAGES - 1),
  { role: "user", content: "And after that?" },
];

async function post(messages: unknown[]) {
  const start = performance.now();
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "stand-in-1", messages }),
  });
  const body = (await response.json()) as { id: string };
  if (!response.ok) throw new Error(`HTTP ${response.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - start, id: body.id };
}

async function matchOnly(messages: unknown[]) {
  const start = performance.now();
  const events = requestEvents("OPENAI_CHAT", messages, ["messages"]);
  const match = await matchChatContext(store, DEVELOPMENT_TENANT, events.map(hashedView));
  return { ms: performance.now() - start, match };
}

// Check the two cases are what they say, and warm up.
const first = await matchOnly(matched);
if (first.match.previousResponseId !== tip) throw new Error("the matched request did not match the stored chain");
if ((await matchOnly(unmatched)).match.previousResponseId) throw new Error("the unmatched request matched");
for (let i = 0; i < 3; i++) await Promise.all([post(matched), post(unmatched)]);

const samples = {
  matched: [] as number[],
  unmatched: [] as number[],
  matchOnly: [] as number[],
  missOnly: [] as number[],
};
for (let round = 0; round < ROUNDS; round++) {
  // Alternate, so that neither gets a quieter machine.
  samples.matched.push((await post(matched)).ms);
  samples.unmatched.push((await post(unmatched)).ms);
  samples.matchOnly.push((await matchOnly(matched)).ms);
  samples.missOnly.push((await matchOnly(unmatched)).ms);
}
await server.close();
await upstream.close();
await closeDatabase();

const p50 = (values: number[]) => percentile(values, 50);
const overhead = p50(samples.matched) - p50(samples.unmatched);
emit([
  {
    scenario: "chat-match",
    metric: `POST /v1/chat/completions p50, ${MESSAGES} messages matched to a stored chain, over unmatched`,
    value: Number(overhead.toFixed(2)),
    unit: "ms",
    baseline: Number(p50(samples.unmatched).toFixed(2)),
    ratio: Number((p50(samples.matched) / p50(samples.unmatched)).toFixed(2)),
    target: "≤ 2 ms",
    met: overhead <= 2,
    note: `matched ${p50(samples.matched).toFixed(2)} ms vs unmatched ${p50(samples.unmatched).toFixed(2)} ms`,
  },
  {
    scenario: "chat-match",
    metric: `the match alone (read ${MESSAGES} messages, prefix hashes, one lookup) p50, matched`,
    value: Number(p50(samples.matchOnly).toFixed(2)),
    unit: "ms",
    note: `unmatched: ${p50(samples.missOnly).toFixed(2)} ms`,
  },
]);
