// Scenario: the overhead dialogql adds to a streamed model turn. 16 conversations, each with a
// history of HISTORY turns, each take a streamed turn at once through POST /v1/responses
// (previous_response_id = its tip, stream: true), against the upstream stand-in (an HTTP server
// speaking Chat Completions, test/support/upstream-stand-in.ts). The baseline is the same
// request — the same whole history as messages — sent to the stand-in directly at the same
// concurrency. Time to first token (first text delta) and total time, p50 and p99; the figure is
// dialogql's minus the direct call's. Clients run in this process, as plain fetch readers.
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { createModelCatalog } from "../../src/generation/providers.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { closeDatabase, config, database, store } from "../lib/store.js";
import { startServer } from "../../src/server/http-server.js";
import { importMessages } from "../../src/services/import-messages.js";
import { startUpstreamStandIn } from "../../test/support/upstream-stand-in.js";
import { emit, smoke } from "../lib/report.js";
import { percentile } from "../lib/stats.js";

const CONVERSATIONS = 16;
const HISTORY = smoke ? 50 : 1_000;
const ROUNDS = smoke ? 3 : 8;
const IMPORT_TURNS = 400; // 800 messages an import: under MAX_EVENTS_PER_WRITE

await applyMigrations(database);
const upstream = await startUpstreamStandIn();
upstream.fallback = {
  output: [{ text: "A reply of a few dozen characters, streamed in several chunks." }],
  usage: { input: 100, output: 20 },
};
const server = await startServer({
  store,
  config,
  port: 0,
  models: createModelCatalog({ OPENAI_BASE_URL: upstream.url, UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0 }),
});

// Each conversation: HISTORY turns of history, imported a few hundred turns at a time.
const history = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => [
    { role: "user", content: `Question ${from + i}: what comes after ${from + i}?` },
    { role: "assistant", content: `After ${from + i} comes ${from + i + 1}.` },
  ]).flat();
const tips: string[] = [];
for (let c = 0; c < CONVERSATIONS; c++) {
  let tip: string | null = null;
  for (let from = 0; from < HISTORY; from += IMPORT_TURNS) {
    const count = Math.min(IMPORT_TURNS, HISTORY - from);
    const result: { responseIds: string[] } = await importMessages(store, {
      format: "OPENAI_RESPONSES",
      messages: history(from, count),
      previousResponseId: tip,
      tenantId: DEVELOPMENT_TENANT,
    });
    tip = result.responseIds.at(-1)!;
  }
  tips.push(tip!);
}
const directMessages = history(0, HISTORY);

interface Timing {
  firstToken: number;
  total: number;
}

/** Reads a streamed answer, noting when the first text delta arrives. */
async function timed(url: string, body: unknown, isTextDelta: (chunk: string) => boolean): Promise<Timing> {
  const start = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  let firstToken = NaN;
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (Number.isNaN(firstToken) && isTextDelta(decoder.decode(chunk))) firstToken = performance.now() - start;
  }
  return { firstToken, total: performance.now() - start };
}

const throughDialogql = (c: number) =>
  timed(
    `${server.url}/v1/responses`,
    { model: "stand-in-1", previous_response_id: tips[c], input: `Round question for ${c}`, stream: true, store: true },
    (chunk) => chunk.includes("response.output_text.delta"),
  ).then((timing) => timing);
const direct = (c: number) =>
  timed(
    `${upstream.url}/chat/completions`,
    {
      model: "stand-in-1",
      stream: true,
      stream_options: { include_usage: true },
      messages: [...directMessages, { role: "user", content: `Round question for ${c}` }],
    },
    (chunk) => /"content":"[^"]/.test(chunk),
  );

async function rounds(call: (c: number) => Promise<Timing>) {
  const samples: Timing[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    samples.push(...(await Promise.all(Array.from({ length: CONVERSATIONS }, (_, c) => call(c)))));
  }
  return samples;
}

// Warm both paths, then alternate so neither gets a quieter machine.
await rounds(direct);
await rounds(throughDialogql);
const directSamples = await rounds(direct);
const dialogqlSamples = await rounds(throughDialogql);
await server.close();
await upstream.close();
await closeDatabase();

const figure = (metric: "firstToken" | "total", p: 50 | 99, target: number) => {
  const value = percentile(
    dialogqlSamples.map((s) => s[metric]),
    p,
  );
  const baseline = percentile(
    directSamples.map((s) => s[metric]),
    p,
  );
  const overhead = value - baseline;
  return {
    scenario: "generate",
    metric: `${metric === "firstToken" ? "time to first token" : "total time"} p${p} overhead (${CONVERSATIONS} concurrent, ${HISTORY}-turn histories)`,
    value: Number(overhead.toFixed(2)),
    unit: "ms",
    baseline: Number(baseline.toFixed(2)),
    ratio: Number((value / baseline).toFixed(2)),
    target: `≤ ${target} ms`,
    met: overhead <= target,
    note: `dialogql ${value.toFixed(2)} ms vs direct ${baseline.toFixed(2)} ms`,
  };
};
emit([figure("firstToken", 50, 5), figure("firstToken", 99, 20), figure("total", 50, 5), figure("total", 99, 20)]);
