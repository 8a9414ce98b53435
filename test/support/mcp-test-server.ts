// An MCP server made with the official SDK, run as its own process (so a test can kill it
// mid-call): Streamable HTTP, stateless, on a free loopback port printed as "listening on <url>".
// Its tools: `add` (a + b), `slow` (answers after `ms`), `fail` (a tool error), `hang` (never
// answers: the test kills the process), `big` (`bytes` of output), `auth` (the Authorization header it got), `calls` (the names of the
// tools called so far, to show that a call did not reach the server), `connections` (how many
// clients have connected).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** Every tool call this process has run, by name (the `calls` tool reads it). */
const called: string[] = [];
/** How many clients have connected (`initialize` requests; the `connections` tool reads it). */
let initialized = 0;

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
  server.registerTool("hang", { description: "Never answers", inputSchema: {} }, () => new Promise(() => {}));
  server.registerTool(
    "big",
    { description: "Answers bytes of text", inputSchema: { bytes: z.number() } },
    async ({ bytes }) => text("x".repeat(bytes)),
  );
  return server;
}

const http = createServer(async (request, response) => {
  if (request.url !== "/mcp") {
    response.writeHead(404).end();
    return;
  }
  if (request.method !== "POST") {
    response.writeHead(405).end();
    return;
  }
  // Stateless: a server and transport per request, as the SDK's stateless example does.
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on("close", () => {
    void transport.close();
    void server.close();
  });
  let text = "";
  for await (const chunk of request) text += chunk;
  const body = JSON.parse(text);
  for (const message of Array.isArray(body) ? body : [body]) {
    if (message?.method === "initialize") initialized++;
    const name = message?.params?.name;
    if (message?.method === "tools/call" && name !== "calls" && name !== "connections") called.push(name);
  }
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
});
http.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});
