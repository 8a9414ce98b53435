// Every step of an MCP turn as it happens: the Responses stream's mcp events in OpenAI's order,
// a historyDelta per committed step for a graphql-ws watcher (and none for another tenant), a
// tool's error as a ToolResultEvent with isError (the turn goes on), a slow tool cut by
// MCP_TOOL_TIMEOUT_MS, a server killed mid-call, output bounded in size, and cancelling mid-loop.
import { beforeAll, describe, expect, it } from "vitest";
import { configWith, prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { type McpServerProcess, startTestMcpServer } from "./support/mcp-servers.js";
import { asCaller, tenantKey, wsAs } from "./support/tenants.js";
import { until } from "./support/until.js";

let g: GeneratingServer;
let server: McpServerProcess;
beforeAll(async () => {
  [g, server] = await Promise.all([
    startGeneratingServer({}, "tenant-a", {
      config: configWith({ MCP_TOOL_TIMEOUT_MS: "1500", MAX_EVENT_BYTES: "16384" }),
    }),
    startTestMcpServer(),
  ]);
});

const tools = (url = server.url) =>
  [{ type: "mcp", server_label: "test", server_url: url, require_approval: "never" }] as never;

// From seq 0: the watcher sees every step however late its subscription starts (the turn is
// created right after it is asked for, and a start may wait for others to share its read).
const DELTAS = `subscription ($dialogId: ID!) { historyDelta(dialogId: $dialogId, afterSeq: 0) { seq status append {
  __typename ... on ToolCallEvent { toolName metadata } ... on ToolResultEvent { toolName isError content } ... on AiEvent { content } } } }`;

async function newDialog(key: string) {
  const created = await asCaller(
    g.server,
    key,
  )(`mutation { createDialog(input: { title: "mcp" }) { ... on Dialog { id } } }`);
  return (created.body.data as { createDialog: { id: string } }).createDialog.id;
}

describe("an MCP turn, step by step", () => {
  it("streams the mcp events in OpenAI's order", async () => {
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":20,"b":22}' } }] },
      { output: [{ text: "42" }] },
    );
    const stream = await g.openai.responses.create({
      model: "stand-in-1",
      input: "20+22",
      tools: tools(),
      stream: true,
    });
    const types: string[] = [];
    for await (const event of stream) {
      if (event.type === "response.mcp_call_arguments.delta" && types.at(-1) === event.type) continue;
      types.push(
        event.type === "response.output_item.added" || event.type === "response.output_item.done"
          ? `${event.type}:${event.item.type}`
          : event.type,
      );
    }
    expect(types).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added:mcp_list_tools",
      "response.mcp_list_tools.in_progress",
      "response.mcp_list_tools.completed",
      "response.output_item.done:mcp_list_tools",
      "response.output_item.added:mcp_call",
      "response.mcp_call.in_progress",
      "response.mcp_call_arguments.delta",
      "response.mcp_call_arguments.done",
      "response.mcp_call.completed",
      "response.output_item.done:mcp_call",
      "response.output_item.added:message",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done:message",
      "response.completed",
    ]);
  });

  it("publishes each committed step to a graphql-ws watcher, and nothing to another tenant", async () => {
    const dialogId = await newDialog(g.key);
    type Delta = { historyDelta: { append: { __typename: string; toolName?: string }[] } };
    const watcher = wsAs(g.server, g.key).iterate<Delta>({
      query: DELTAS,
      variables: { dialogId },
    });
    const other = await tenantKey("tenant-b");
    const stranger = await wsAs(g.server, other.key).iterate({ query: DELTAS, variables: { dialogId } }).next();
    expect(stranger.value.errors?.[0]?.message).toBe(`Dialog ${dialogId} not found`);
    g.upstream.script(
      { output: [{ toolCall: { name: "fail", arguments: '{"why":"broken"}' } }] },
      { output: [{ text: "The tool failed." }] },
    );
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "try",
      tools: tools(),
      conversation: dialogId,
    });
    expect(response.status).toBe("completed");
    const steps: string[][] = [];
    while (steps.flat().at(-1) !== "AiEvent:") {
      const value = (await watcher.next()).value as { data: Delta };
      // Deltas of the answer's text as it is typed append nothing; the committed answer follows.
      if (!value.data.historyDelta.append.length) continue;
      steps.push(value.data.historyDelta.append.map((event) => `${event.__typename}:${event.toolName ?? ""}`));
    }
    // The input; the listing; the model's call; the tool's (failed) result; the answer.
    expect(steps).toEqual([
      ["HumanEvent:"],
      ["ToolCallEvent:mcp_list_tools", "ToolResultEvent:mcp_list_tools"],
      ["ToolCallEvent:fail"],
      ["ToolResultEvent:fail"],
      ["AiEvent:"],
    ]);
    const result = await prisma.event.findFirstOrThrow({
      where: { responseId: response.id, type: "TOOL_RESULT", toolName: "fail" },
    });
    expect(result).toMatchObject({ isError: true, content: "failed: broken" });
    expect(response.output[1]).toMatchObject({
      type: "mcp_call",
      status: "failed",
      output: null,
      error: { type: "mcp_tool_execution_error", content: [{ type: "text", text: "failed: broken" }] },
    });
    await watcher.return?.();
  });

  it("ends a slow call at MCP_TOOL_TIMEOUT_MS with an error the model is given", async () => {
    g.upstream.script(
      { output: [{ toolCall: { name: "slow", arguments: '{"ms":10000}' } }] },
      { output: [{ text: "Too slow." }] },
    );
    const response = await g.openai.responses.create({ model: "stand-in-1", input: "sleep", tools: tools() });
    expect(response.status).toBe("completed");
    expect(response.output[1]).toMatchObject({
      type: "mcp_call",
      status: "failed",
      error: { type: "mcp_protocol_error", code: -32001 },
    });
    const told = g.upstream.requests.at(-1)!.body.messages!.at(-1) as { role: string; content: string };
    expect(told.role).toBe("tool");
    expect(told.content).toMatch(/timed out/i);
  });

  it("ends a call whose server is killed mid-call with an error the model sees", async () => {
    const doomed = await startTestMcpServer();
    g.upstream.script(
      { output: [{ toolCall: { name: "hang", arguments: "{}" } }] },
      { output: [{ text: "The server is gone." }] },
    );
    const stream = await g.openai.responses.create({
      model: "stand-in-1",
      input: "hang",
      tools: tools(doomed.url),
      stream: true,
    });
    let last: { status: string; output: { type: string; error?: unknown }[] } | undefined;
    for await (const event of stream) {
      if (event.type === "response.mcp_call.in_progress") await doomed.kill();
      if (event.type === "response.completed") last = event.response as never;
    }
    expect(last!.status).toBe("completed");
    expect(last!.output[1]).toMatchObject({ type: "mcp_call", error: { type: "mcp_protocol_error" } });
    expect(g.upstream.requests.at(-1)!.body.messages!.at(-1)).toMatchObject({ role: "tool" });
  });

  it("cuts a tool's output to fit an event", async () => {
    g.upstream.script(
      { output: [{ toolCall: { name: "big", arguments: '{"bytes":100000}' } }] },
      { output: [{ text: "Big." }] },
    );
    const response = await g.openai.responses.create({ model: "stand-in-1", input: "big", tools: tools() });
    const output = (response.output[1] as { output: string }).output;
    expect(Buffer.byteLength(output)).toBeLessThan(16384);
    expect(output).toMatch(/\[output cut at \d+ bytes\]$/);
  });

  /**
   * A background turn whose model calls `slow` (answering after `ms`), once the call is stored: the
   * moment to stop it. `requests` is the upstream's request count before the turn.
   */
  async function turnInSlowCall(ms: number) {
    g.upstream.script({ output: [{ toolCall: { name: "slow", arguments: JSON.stringify({ ms }) } }] });
    const requests = g.upstream.requests.length;
    const started = await g.openai.responses.create({
      model: "stand-in-1",
      input: "sleep",
      tools: tools(),
      background: true,
    });
    await until(
      async () => (await prisma.event.count({ where: { responseId: started.id, toolName: "slow" } })) === 1,
      "the call",
    );
    return { responseId: started.id, requests };
  }

  it("cancelling mid-call stops the loop: no more tool calls, no more model calls", async () => {
    const { responseId, requests } = await turnInSlowCall(1000);
    const cancelled = await g.openai.responses.cancel(responseId);
    expect(cancelled.status).toBe("cancelled");
    const events = await prisma.event.findMany({ where: { responseId }, orderBy: { seq: "asc" } });
    expect(events.map((event) => event.type)).toEqual(["HUMAN", "TOOL_CALL", "TOOL_RESULT", "TOOL_CALL"]);
    expect(g.upstream.requests.length).toBe(requests + 1);
  });

  it("interruptResponse (SAVE_MARKED) mid-call keeps the partial answer, leaves the call without a result and stops the loop", async () => {
    const cancelledTurns = async () => {
      const text = await (await fetch(`${g.server.url}/metrics`)).text();
      return Number(/dialogql_upstream_model_calls_total\{status="CANCELLED"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await cancelledTurns();
    const { responseId, requests } = await turnInSlowCall(300);
    const interrupted = await asCaller(g.server, g.key)(
      `mutation ($id: ID!) { interruptResponse(input: { responseId: $id, behavior: SAVE_MARKED, partialText: "Sleeping…" }) { ... on Response { status } } }`,
      { id: responseId },
    );
    expect(interrupted.body.data).toEqual({ interruptResponse: { status: "INCOMPLETE" } });
    // The loop has ended (a turn ended by the interrupt counts as cancelled) …
    await until(async () => (await cancelledTurns()) === before + 1, "the loop to end");
    // … with no tool result, no further model call, and the interrupt's partial answer last.
    const events = await prisma.event.findMany({ where: { responseId }, orderBy: { seq: "asc" } });
    expect(events.map((event) => [event.type, event.toolName ?? event.content])).toEqual([
      ["HUMAN", "sleep"],
      ["TOOL_CALL", "mcp_list_tools"],
      ["TOOL_RESULT", "mcp_list_tools"],
      ["TOOL_CALL", "slow"],
      ["AI", "Sleeping…"],
    ]);
    expect(g.upstream.requests.length).toBe(requests + 1);
  });
});
