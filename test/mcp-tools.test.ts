// Server-side MCP tools in /v1/responses: the real `openai` SDK asks for a turn with an `mcp`
// tool, dialogql lists the server's tools (real MCP servers, each its own process), offers them to
// the model (the stand-in upstream, which calls them as scripted), runs each call, gives the
// result back, and stores every step as history events.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import {
  forgetSessions,
  type McpServerProcess,
  startEverythingServer,
  startTestMcpServer,
} from "./support/mcp-servers.js";
import { tenantKey } from "./support/tenants.js";

let g: GeneratingServer;
let everything: McpServerProcess;
let testServer: McpServerProcess;
beforeAll(async () => {
  [g, everything, testServer] = await Promise.all([
    startGeneratingServer(),
    startEverythingServer("streamableHttp"),
    startTestMcpServer(),
  ]);
});

const mcpTool = (url: string, extra: object = {}) =>
  ({ type: "mcp", server_label: "tools", server_url: url, require_approval: "never", ...extra }) as const;

const storedEvents = (responseId: string) =>
  prisma.event.findMany({
    where: { responseId },
    orderBy: { seq: "asc" },
    select: {
      phase: true,
      type: true,
      content: true,
      callId: true,
      toolName: true,
      args: true,
      isError: true,
      metadata: true,
    },
  });

describe("an mcp tool", () => {
  it("lists the server's tools, runs the model's call and gives the result back (server-everything, Streamable HTTP)", async () => {
    g.upstream.script(
      { output: [{ toolCall: { name: "echo", arguments: '{"message":"hi there"}', id: "call_echo" } }] },
      { output: [{ text: "The server said: Echo: hi there" }] },
    );
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "Echo hi there",
      tools: [
        mcpTool(everything.url, {
          allowed_tools: ["echo", "get-sum"],
          headers: { authorization: "Bearer secret-token" },
        }),
      ],
    });
    expect(response.status).toBe("completed");
    const [listing, call, answer] = response.output;
    expect(listing).toMatchObject({ type: "mcp_list_tools", server_label: "tools", error: null });
    expect((listing as { tools: { name: string }[] }).tools.map((tool) => tool.name).sort()).toEqual([
      "echo",
      "get-sum",
    ]);
    expect(call).toEqual({
      type: "mcp_call",
      id: expect.stringMatching(/^mcp_/),
      status: "completed",
      server_label: "tools",
      name: "echo",
      arguments: '{"message":"hi there"}',
      output: "Echo: hi there",
      error: null,
      approval_request_id: null,
    });
    expect(answer).toMatchObject({ type: "message" });
    expect(response.output_text).toBe("The server said: Echo: hi there");
    // The model was offered only the allowed tools, and given the tool's result.
    const [first, second] = g.upstream.requests.slice(-2);
    expect(first!.body.tools!.map((tool) => tool.function?.name).sort()).toEqual(["echo", "get-sum"]);
    expect(second!.body.messages!.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "call_echo",
      content: "Echo: hi there",
    });
    // Headers are used, never echoed or stored.
    expect(JSON.stringify(response)).not.toContain("secret-token");
    const events = await storedEvents(response.id);
    expect(JSON.stringify(events)).not.toContain("secret-token");
    expect(events.map((event) => [event.phase, event.type, event.toolName])).toEqual([
      ["INPUT", "HUMAN", null],
      ["OUTPUT", "TOOL_CALL", "mcp_list_tools"],
      ["OUTPUT", "TOOL_RESULT", "mcp_list_tools"],
      ["OUTPUT", "TOOL_CALL", "echo"],
      ["OUTPUT", "TOOL_RESULT", "echo"],
      ["OUTPUT", "AI", null],
    ]);
    // A later GET gives the same output.
    const again = await g.openai.responses.retrieve(response.id);
    expect(again.output).toEqual(response.output);
  });

  it("falls back to the SSE transport for a server that has only it (server-everything, SSE)", async () => {
    const sse = await startEverythingServer("sse");
    g.upstream.script(
      { output: [{ toolCall: { name: "get-sum", arguments: '{"a":2,"b":40}' } }] },
      { output: [{ text: "42" }] },
    );
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "2+40?",
      tools: [mcpTool(sse.url, { allowed_tools: { tool_names: ["get-sum"] } })],
    });
    expect(response.output.map((item) => item.type)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
    expect(response.output[1]).toMatchObject({ name: "get-sum", status: "completed", error: null });
    expect((response.output[1] as { output: string }).output).toContain("42");
    await sse.kill();
  });

  it("reuses the chain's tool listing, as OpenAI does", async () => {
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":2,"b":3}' } }] },
      { output: [{ text: "5" }] },
      { output: [{ toolCall: { name: "add", arguments: '{"a":5,"b":1}' } }] },
      { output: [{ text: "6" }] },
    );
    const tools = [mcpTool(testServer.url)];
    const first = await g.openai.responses.create({ model: "stand-in-1", input: "2+3?", tools });
    expect(first.output.map((item) => item.type)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
    const second = await g.openai.responses.create({
      model: "stand-in-1",
      input: "+1?",
      tools,
      previous_response_id: first.id,
    });
    expect(second.output.map((item) => item.type)).toEqual(["mcp_call", "message"]);
    expect(second.output[0]).toMatchObject({ output: "6", status: "completed" });
  });

  it("numbers MCP items among the output: the ids the stream announces are the GET's and resolve to their own items", async () => {
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":2,"b":3}' } }] },
      { output: [{ text: "5" }] },
      { output: [{ text: "ok" }] },
    );
    const stream = await g.openai.responses.create({
      model: "stand-in-1",
      input: "2+3?",
      tools: [mcpTool(testServer.url)],
      stream: true,
    });
    const announced: string[] = [];
    let responseId = "";
    for await (const event of stream) {
      if (event.type === "response.output_item.added") announced.push(event.item.id!);
      if (event.type === "response.completed") responseId = event.response.id;
    }
    // The nth item of resp_X is <prefix>_X_n (the listing keeps its own mcpl_ id, as OpenAI's).
    const suffix = responseId.replace(/^resp_/, "");
    expect(announced).toEqual([expect.stringMatching(/^mcpl_/), `mcp_${suffix}_1`, `msg_${suffix}_2`]);
    const stored = await g.openai.responses.retrieve(responseId);
    expect(stored.output.map((item) => item.id)).toEqual(announced);
    // The answer's id names the answer: the next request gives the model that text, as the assistant's.
    const next = await g.openai.responses.create({
      model: "stand-in-1",
      input: [
        { type: "item_reference", id: announced[2]! },
        { role: "user", content: "thanks" },
      ],
    });
    expect(next.status).toBe("completed");
    expect(g.upstream.requests.at(-1)!.body.messages!.slice(-2)).toEqual([
      { role: "assistant", content: "5" },
      { role: "user", content: "thanks" },
    ]);
  });

  it("keeps the connection to a server between turns, one per tenant and headers", async () => {
    const server = await startTestMcpServer();
    const connections = async () => {
      g.upstream.script(
        { output: [{ toolCall: { name: "connections", arguments: "{}" } }] },
        { output: [{ text: "ok" }] },
      );
      const response = await g.openai.responses.create({
        model: "stand-in-1",
        input: "how many?",
        tools: [mcpTool(server.url)],
      });
      return Number((response.output[1] as { output: string }).output);
    };
    // Three turns, each in a conversation of its own (listing, then calling): one connection.
    expect([await connections(), await connections(), await connections()]).toEqual([1, 1, 1]);
    // Other headers, or another tenant, connect on their own.
    g.upstream.script({ output: [{ toolCall: { name: "auth", arguments: "{}" } }] }, { output: [{ text: "ok" }] });
    await g.openai.responses.create({
      model: "stand-in-1",
      input: "who?",
      tools: [mcpTool(server.url, { authorization: "someone-else" })],
    });
    const other = g.clientFor((await tenantKey("tenant-pool")).key);
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":1,"b":1}' } }] },
      { output: [{ text: "2" }] },
    );
    await other.responses.create({ model: "stand-in-1", input: "1+1", tools: [mcpTool(server.url)] });
    expect(await connections()).toBe(3);
    await server.kill();
  });

  describe("a kept connection whose session the server forgot (answered 404) is opened again, once", () => {
    let server: McpServerProcess;
    beforeAll(async () => {
      server = await startTestMcpServer({ sessions: true });
      return () => server.kill();
    });
    /** A turn that calls `connections` (chained to `previous`, it reuses that turn's listing). */
    const connectionsTurn = async (previous?: string) => {
      g.upstream.script(
        { output: [{ toolCall: { name: "connections", arguments: "{}" } }] },
        { output: [{ text: "ok" }] },
      );
      const response = await g.openai.responses.create({
        model: "stand-in-1",
        input: "how many?",
        tools: [mcpTool(server.url)],
        ...(previous ? { previous_response_id: previous } : {}),
      });
      const call = response.output.find((item) => item.type === "mcp_call");
      return { response, call: call as { output: string; error: unknown; status: string } };
    };

    it("a call (the listing reused from the chain) is sent again on a new session", async () => {
      const first = await connectionsTurn();
      expect(first.call).toMatchObject({ output: "1", error: null });
      await forgetSessions(server);
      const second = await connectionsTurn(first.response.id);
      // The chain's listing was reused, so the call was the first request on the stale session.
      expect(second.response.output.map((item) => item.type)).toEqual(["mcp_call", "message"]);
      expect(second.call).toMatchObject({ output: "2", error: null, status: "completed" });
    });

    it("a listing is sent again on a new session", async () => {
      const before = Number((await connectionsTurn()).call.output);
      await forgetSessions(server);
      const after = await connectionsTurn();
      expect(after.response.output.map((item) => item.type)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
      expect(after.response.output[0]).toMatchObject({ error: null });
      expect(after.call).toMatchObject({ output: String(before + 1), error: null, status: "completed" });
    });
  });

  it("sends `authorization` as a bearer token, and refuses a field it does not act on by name", async () => {
    g.upstream.script({ output: [{ toolCall: { name: "auth", arguments: "{}" } }] }, { output: [{ text: "ok" }] });
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "who am I?",
      tools: [mcpTool(testServer.url, { authorization: "oauth-token-1" })],
    });
    expect(response.output[1]).toMatchObject({ type: "mcp_call", output: "Bearer oauth-token-1" });
    // (The tool's output says it back; the token itself is neither echoed nor kept with the turn.)
    expect(JSON.stringify(response.tools)).not.toContain("oauth-token-1");
    const stored = await prisma.response.findUniqueOrThrow({ where: { id: response.id } });
    expect(JSON.stringify(stored)).not.toContain("oauth-token-1");
    const refused = await g.openai.responses
      .create({ model: "stand-in-1", input: "hi", tools: [mcpTool(testServer.url, { defer_loading: true })] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 400,
      error: { param: "tools[0]", message: expect.stringContaining("defer_loading") },
    });
  });

  it("refuses a server outside MCP_ALLOWED_SERVERS with a 400 naming it, before anything runs", async () => {
    const before = await prisma.response.count();
    const requests = g.upstream.requests.length;
    const refused = await g.openai.responses
      .create({ model: "stand-in-1", input: "hi", tools: [mcpTool("https://mcp.example.com/mcp")] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 400,
      error: { param: "tools[0].server_url", message: expect.stringContaining("https://mcp.example.com/mcp") },
    });
    expect(await prisma.response.count()).toBe(before);
    expect(g.upstream.requests.length).toBe(requests);
  });
});
