// Scenario: what dialogql adds to a turn with one MCP call. One at a time, ROUNDS turns through
// POST /v1/responses with an `mcp` tool (a fresh conversation each, so the server's tools are
// listed every time), against the upstream stand-in (which calls the one offered tool, then
// answers once it has the result) and the SDK-made test MCP server (test/support/mcp-test-server.ts,
// its own process). Side by side, the baseline does the same work directly: the MCP SDK client
// connects, lists the tools and makes the call, and the two model calls go to the stand-in, in
// the same order. The figure is dialogql's p50 minus the baseline's (target ≤ 5 ms); for
// comparison, the same for a turn with no tool against its one model call.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import path from "node:path";
import { createModelCatalog } from "../../src/generation/providers.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { startServer } from "../../src/server/http-server.js";
import { startUpstreamStandIn } from "../../test/support/upstream-stand-in.js";
import { closeDatabase, config, database, store } from "../lib/store.js";
import { emit, smoke } from "../lib/report.js";
import { percentile } from "../lib/stats.js";

const ROUNDS = smoke ? 10 : 60;
const ROOT = path.resolve(import.meta.dirname, "../..");

await applyMigrations(database);
const upstream = await startUpstreamStandIn();
upstream.callOfferedTools = true; // the model calls the offered tool, then answers
upstream.fallback = { output: [{ text: "The sum is 0." }], usage: { input: 50, output: 10 } };
const server = await startServer({
  store,
  config,
  port: 0,
  models: createModelCatalog({ OPENAI_BASE_URL: upstream.url, UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0 }),
});
const mcp = spawn(process.execPath, ["--import", "tsx", "test/support/mcp-test-server.ts"], {
  cwd: ROOT,
  stdio: ["ignore", "pipe", "inherit"],
});
const mcpUrl = await new Promise<string>((resolve) => {
  let output = "";
  mcp.stdout!.on("data", (chunk) => {
    output += chunk;
    const match = /listening on (\S+)/.exec(output);
    if (match) resolve(match[1]!);
  });
});

const tool = {
  type: "mcp",
  server_label: "calc",
  server_url: mcpUrl,
  allowed_tools: ["add"],
  require_approval: "never",
};

async function throughDialogql() {
  const start = performance.now();
  const response = await fetch(`${server.url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "stand-in-1", input: "Add 0 and 0.", tools: [tool] }),
  });
  const body = (await response.json()) as { output?: { type: string; error?: unknown }[] };
  const call = body.output?.find((item) => item.type === "mcp_call");
  if (!response.ok || !call || call.error) throw new Error(`unexpected answer: ${JSON.stringify(body)}`);
  return performance.now() - start;
}

/** For comparison: a turn with no tool, and the one model call it makes. */
async function plainTurn() {
  const start = performance.now();
  const response = await fetch(`${server.url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "stand-in-1", input: "Add 0 and 0." }),
  });
  if (!response.ok) throw new Error(`unexpected answer: ${await response.text()}`);
  await response.json();
  return performance.now() - start;
}
const plainDirect = async () => {
  const start = performance.now();
  await chat([{ role: "user", content: "Add 0 and 0." }], []);
  return performance.now() - start;
};

async function chat(messages: unknown[], tools: unknown[]) {
  const response = await fetch(`${upstream.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "stand-in-1", messages, ...(tools.length && { tools }) }),
  });
  return (await response.json()) as {
    choices: { message: { tool_calls?: { id: string; function: { name: string; arguments: string } }[] } }[];
  };
}

/** The same work without dialogql: list, two model calls around the tool call. */
async function direct() {
  const start = performance.now();
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  const listed = await client.listTools();
  const add = listed.tools.find((candidate) => candidate.name === "add")!;
  const tools = [{ type: "function", function: { name: add.name, parameters: add.inputSchema } }];
  const user = { role: "user", content: "Add 0 and 0." };
  const first = await chat([user], tools);
  const call = first.choices[0]!.message.tool_calls![0]!;
  const result = await client.callTool({ name: call.function.name, arguments: JSON.parse(call.function.arguments) });
  const text = (result.content as { text: string }[])[0]!.text;
  await chat(
    [
      user,
      { role: "assistant", content: null, tool_calls: [{ id: call.id, type: "function", function: call.function }] },
      { role: "tool", tool_call_id: call.id, content: text },
    ],
    tools,
  );
  await client.close();
  return performance.now() - start;
}

async function rounds(call: () => Promise<number>) {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) samples.push(await call());
  return samples;
}

// Warm both paths, then measure them side by side, alternating halves.
await rounds(direct);
await rounds(throughDialogql);

const directSamples: number[] = [];
const dialogqlSamples: number[] = [];
const plainDirectSamples: number[] = [];
const plainSamples: number[] = [];
for (let part = 0; part < 2; part++) {
  directSamples.push(...(await rounds(direct)));
  dialogqlSamples.push(...(await rounds(throughDialogql)));
  plainDirectSamples.push(...(await rounds(plainDirect)));
  plainSamples.push(...(await rounds(plainTurn)));
}
await server.close();
await upstream.close();
mcp.kill();
await closeDatabase();

const figure = (p: 50 | 99, target: number, plain = false) => {
  const value = percentile(plain ? plainSamples : dialogqlSamples, p);
  const baseline = percentile(plain ? plainDirectSamples : directSamples, p);
  const overhead = value - baseline;
  return {
    scenario: "mcp-call",
    metric: plain
      ? `for comparison: turn with no tool, p${p} overhead (one model call)`
      : `turn with one MCP call, p${p} overhead (list + call + two model calls, one at a time)`,
    value: Number(overhead.toFixed(2)),
    unit: "ms",
    baseline: Number(baseline.toFixed(2)),
    ratio: Number((value / baseline).toFixed(2)),
    target: `≤ ${target} ms`,
    met: overhead <= target,
    note: `dialogql ${value.toFixed(2)} ms vs direct ${baseline.toFixed(2)} ms`,
  };
};
emit([figure(50, 5), figure(99, 20), figure(50, 5, true)]);
