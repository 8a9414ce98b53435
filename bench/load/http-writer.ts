// Child process: CONCURRENCY clients writing turns to dialogql over HTTP for DURATION_MS, each
// continuing its own dialog, as an agent would. WITH_USAGE=1 (dialogql, not the peer, whose schema
// has no usage): each turn records its token usage of a priced model, so the write pays for the
// usage aggregates (docs/usage.md).
import { emit } from "../lib/report.js";
import { summarize } from "../lib/stats.js";

const url = process.env.TARGET_URL!;
const clients = Number(process.env.CONCURRENCY);
const durationMs = Number(process.env.DURATION_MS);
const withUsage = process.env.WITH_USAGE === "1";

const CREATE = `mutation($input: CreateResponseInput!) { createResponse(input: $input) { __typename ... on Response { id dialog { id } } ... on Error { message } } }`;

async function write(input: Record<string, unknown>) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: CREATE, variables: { input } }),
  });
  const body = (await response.json()) as any;
  const result = body.data?.createResponse;
  if (result?.__typename !== "Response") throw new Error(`write failed: ${JSON.stringify(body)}`);
  return result;
}

const turn = (i: number) => ({
  input: [{ human: { content: `Question ${i}` } }],
  output: [
    { reasoning: { content: "I should read the file first...", modelName: "bench-model" } },
    { ai: { content: "I'll read it" } },
    { toolCall: { callId: `call_${i}`, toolName: "read_file", args: { path: "file.py" } } },
  ],
  model: withUsage ? "gpt-4o-mini" : "bench",
  ...(withUsage && { usage: { inputTokens: 1200 + i, outputTokens: 80, cachedTokens: 1000, reasoningTokens: 20 } }),
});

const dialogs: string[] = [];
for (let c = 0; c < clients; c++) dialogs.push((await write(turn(0))).dialog.id);

const latencies: number[] = [];
const started = performance.now();
const deadline = started + durationMs;
await Promise.all(
  dialogs.map(async (dialogId) => {
    for (let i = 1; performance.now() < deadline; i++) {
      const start = performance.now();
      await write({ dialogId, ...turn(i) });
      latencies.push(performance.now() - start);
    }
  }),
);
emit([{ ...summarize(latencies), turns: latencies.length, elapsedMs: performance.now() - started } as any]);
