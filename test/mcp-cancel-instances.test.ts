// Stopping an MCP turn from another instance (two servers on one database and one Redis): the
// turn runs on instance A, waiting on a tool that never answers; the stop lands on instance B —
// `POST /v1/responses/{id}/cancel`, GraphQL `cancelResponse` or `interruptResponse`. A's loop must
// end at once (the tool's timeout is far away): the pending call is given up, no result is written
// and the model is not called again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { createModelCatalog } from "../src/generation/providers.js";
import { type RunningServer, startServer } from "../src/server/http-server.js";
import { configWith, prisma, store } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { type McpServerProcess, startTestMcpServer } from "./support/mcp-servers.js";
import { asCaller } from "./support/tenants.js";
import { until } from "./support/until.js";

// Far beyond every wait below: only the stop can end the call.
const config = configWith({ MCP_TOOL_TIMEOUT_MS: "120000" });

let a: GeneratingServer;
let b: RunningServer;
let mcp: McpServerProcess;
beforeAll(async () => {
  if (!process.env.TEST_REDIS_URL) return;
  [a, mcp] = await Promise.all([startGeneratingServer({}, "tenant-a", { config }), startTestMcpServer()]);
  b = await startServer({
    store,
    config,
    port: 0,
    redisUrl: process.env.TEST_REDIS_URL,
    models: createModelCatalog({ UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0 }),
  });
});
afterAll(() => b?.close());

/** Turns that ended on A by being stopped (its loop over), from the process's metrics. */
async function stoppedTurns() {
  const text = await (await fetch(`${a.server.url}/metrics`)).text();
  return Number(/dialogql_upstream_model_calls_total\{status="CANCELLED"\} (\d+)/.exec(text)?.[1] ?? 0);
}

/** A turn on A that is waiting on the `hang` tool, with the upstream requests and stopped turns before it. */
async function turnWaitingOnATool() {
  a.upstream.script({ output: [{ toolCall: { name: "hang", arguments: "{}" } }] });
  const requests = a.upstream.requests.length;
  const stopped = await stoppedTurns();
  const started = await a.openai.responses.create({
    model: "stand-in-1",
    input: "wait",
    tools: [{ type: "mcp", server_label: "test", server_url: mcp.url, require_approval: "never" }],
    background: true,
  });
  await until(
    async () => (await prisma.event.count({ where: { responseId: started.id, toolName: "hang" } })) === 1,
    "the call to be under way",
  );
  return { id: started.id, requests, stopped };
}

/** A's loop has ended, with no tool result and no model call after the one that asked for the tool. */
async function expectLoopOver(turn: Awaited<ReturnType<typeof turnWaitingOnATool>>) {
  await until(async () => (await stoppedTurns()) === turn.stopped + 1, "A's loop to end", 10_000);
  const events = await prisma.event.findMany({ where: { responseId: turn.id }, orderBy: { seq: "asc" } });
  expect(events.filter((event) => event.type === "TOOL_RESULT" && event.toolName === "hang")).toEqual([]);
  expect(a.upstream.requests.length).toBe(turn.requests + 1);
  return events;
}

describe.skipIf(!process.env.TEST_REDIS_URL)("stopping an MCP turn that runs on another instance", () => {
  it("POST /v1/responses/{id}/cancel on B stops A's loop mid-call", async () => {
    const turn = await turnWaitingOnATool();
    const onB = new OpenAI({ baseURL: `${b.url}/v1`, apiKey: a.key, maxRetries: 0 });
    const cancelled = await onB.responses.cancel(turn.id);
    expect(cancelled.status).toBe("cancelled");
    await expectLoopOver(turn);
  });

  it("GraphQL cancelResponse on B stops A's loop mid-call", async () => {
    const turn = await turnWaitingOnATool();
    const answer = await asCaller(b, a.key)(
      `mutation ($id: ID!) { cancelResponse(responseId: $id) { ... on Response { status } } }`,
      { id: turn.id },
    );
    expect(answer.body).toEqual({ data: { cancelResponse: { status: "CANCELLED" } } });
    await expectLoopOver(turn);
  });

  it("interruptResponse on B stops A's loop mid-call, the interrupt's answer last", async () => {
    const turn = await turnWaitingOnATool();
    const answer = await asCaller(b, a.key)(
      `mutation ($id: ID!) { interruptResponse(input: { responseId: $id, behavior: SAVE_MARKED, partialText: "Waiting…" }) { ... on Response { status } } }`,
      { id: turn.id },
    );
    expect(answer.body).toEqual({ data: { interruptResponse: { status: "INCOMPLETE" } } });
    const events = await expectLoopOver(turn);
    expect(events.map((event) => [event.type, event.toolName ?? event.content])).toEqual([
      ["HUMAN", "wait"],
      ["TOOL_CALL", "mcp_list_tools"],
      ["TOOL_RESULT", "mcp_list_tools"],
      ["TOOL_CALL", "hang"],
      ["AI", "Waiting…"],
    ]);
  });
});
