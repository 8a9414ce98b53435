// An MCP server made with the official SDK, run as its own process (so a test can kill it
// mid-call): Streamable HTTP, stateless, on a free loopback port printed as "listening on <url>".
// With MCP_TEST_SESSIONS=1 it keeps sessions instead (an id per client, from `initialize`), answers
// 404 to a session id it does not know, as the specification says, and `POST /forget-sessions`
// drops every session it has, as a server that restarted would.
// Its tools: `add` (a + b), `slow` (answers after `ms`), `fail` (a tool error), `hang` (never
// answers: the test kills the process), `big` (`bytes` of output), `auth` (the Authorization header it got), `calls` (the names of the
// tools called so far, to show that a call did not reach the server), `connections` (how many
// clients have connected), `gated` (answers once a test opens the gate: `GET /gate` says how many
// calls wait at it, `POST /gate` lets them all go).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** Every tool call this process has run, by name (the `calls` tool reads it). */
const called: string[] = [];
/** How many clients have connected (`initialize` requests; the `connections` tool reads it). */
let initialized = 0;
/** The `gated` calls waiting for the test to open the gate. */
const atGate: (() => void)[] = [];

function mcpServer() {
  const server = new McpServer({ name: "dialogql-test", version: "1.0.0" });
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
  server.registerTool("calls", { description: "The tools called so far", inputSchema: {} }, async () =>
    text(JSON.stringify(called)),
  );
  server.registerTool("connections", { description: "How many clients have connected", inputSchema: {} }, async () =>
    text(String(initialized)),
  );
  server.registerTool(
    "add",
    { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => text(String(a + b)),
  );
  server.registerTool(
    "slow",
    { description: "Answers after ms milliseconds", inputSchema: { ms: z.number() } },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return text(`slept ${ms} ms`);
    },
  );
  server.registerTool("fail", { description: "Always fails", inputSchema: { why: z.string() } }, async ({ why }) => ({
    content: [{ type: "text" as const, text: `failed: ${why}` }],
    isError: true,
  }));
  server.registerTool(
    "auth",
    { description: "The Authorization header it was sent", inputSchema: {} },
    async (_args, extra) => text(String(extra.requestInfo?.headers?.authorization ?? "none")),
  );
  server.registerTool("gated", { description: "Answers once the gate opens", inputSchema: {} }, async () => {
    await new Promise<void>((resolve) => atGate.push(resolve));
    return text("through the gate");
  });
  server.registerTool("hang", { description: "Never answers", inputSchema: {} }, () => new Promise(() => {}));
  server.registerTool(
    "big",
    { description: "Answers bytes of text", inputSchema: { bytes: z.number() } },
    async ({ bytes }) => text("x".repeat(bytes)),
  );
  return server;
}

/** Counts what the tools report on, from one JSON-RPC body. */
function note(body: unknown) {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (message?.method === "initialize") initialized++;
    const name = message?.params?.name;
    if (message?.method === "tools/call" && name !== "calls" && name !== "connections") called.push(name);
  }
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return JSON.parse(text);
}

/** Stateless: a server and transport per request, as the SDK's stateless example does. */
async function statelessRequest(request: IncomingMessage, response: ServerResponse) {
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on("close", () => {
    void transport.close();
    void server.close();
  });
  const body = await readBody(request);
  note(body);
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
}

/** The sessions of the stateful mode, by id, as the SDK's stateful example keeps them. */
const sessions = new Map<string, StreamableHTTPServerTransport>();

async function sessionRequest(request: IncomingMessage, response: ServerResponse) {
  const body = await readBody(request);
  const id = request.headers["mcp-session-id"];
  let transport = typeof id === "string" ? sessions.get(id) : undefined;
  if (typeof id === "string" && !transport) {
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
    return;
  }
  note(body);
  if (!transport) {
    const opened = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, opened),
    });
    transport = opened;
    await mcpServer().connect(transport);
  }
  await transport.handleRequest(request, response, body);
}

const stateful = process.env.MCP_TEST_SESSIONS === "1";

const http = createServer(async (request, response) => {
  if (stateful && request.url === "/forget-sessions" && request.method === "POST") {
    const forgotten = [...sessions.values()];
    sessions.clear();
    await Promise.all(forgotten.map((transport) => transport.close()));
    response.writeHead(204).end();
    return;
  }
  if (request.url === "/gate") {
    if (request.method === "POST") for (const open of atGate.splice(0)) open();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ waiting: atGate.length }));
    return;
  }
  if (request.url !== "/mcp") {
    response.writeHead(404).end();
    return;
  }
  if (request.method !== "POST") {
    response.writeHead(405).end();
    return;
  }
  await (stateful ? sessionRequest(request, response) : statelessRequest(request, response));
});
http.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});
