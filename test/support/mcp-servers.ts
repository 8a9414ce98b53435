// Real MCP servers for tests, each its own process, stopped after the test file:
// `@modelcontextprotocol/server-everything` from npm (Streamable HTTP or the older SSE transport)
// and test/support/mcp-test-server.ts (slow, failing, hanging tools), made with the SDK.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { freePort } from "./child-server.js";
import { atEveryFileEnd } from "./file-scope.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const running = new Set<ChildProcess>();
atEveryFileEnd(async () => {
  await Promise.all([...running].map((child) => kill(child)));
});

export interface McpServerProcess {
  url: string;
  /** Kills the process (SIGKILL) and waits for it to be gone. */
  kill(): Promise<void>;
}

function kill(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

function start(args: string[], env: Record<string, string>, ready: RegExp, url: (match: RegExpExecArray) => string) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  return new Promise<McpServerProcess>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve({ url: url(match), kill: () => kill(child) });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`MCP server exited (${code}) before listening:\n${output}`)));
    setTimeout(() => reject(new Error(`MCP server not listening after 30 s:\n${output}`)), 30_000).unref();
  });
}

/** @modelcontextprotocol/server-everything over Streamable HTTP (`/mcp`) or SSE (`/sse`). */
export async function startEverythingServer(transport: "streamableHttp" | "sse"): Promise<McpServerProcess> {
  const entry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
  const port = await freePort();
  const endpoint = transport === "sse" ? "sse" : "mcp";
  return start(
    [entry, transport],
    { PORT: String(port) },
    /listening on port|running on port/i,
    () => `http://127.0.0.1:${port}/${endpoint}`,
  );
}

/**
 * The SDK-made test server (add, slow, fail, hang, big). With `sessions`, it keeps a session per
 * client, and `forgetSessions` drops them all (as a restart would): a request with a forgotten
 * session id is then answered 404.
 */
export function startTestMcpServer(options: { sessions?: boolean } = {}): Promise<McpServerProcess> {
  return start(
    ["--import", "tsx", "test/support/mcp-test-server.ts"],
    options.sessions ? { MCP_TEST_SESSIONS: "1" } : {},
    /listening on (http:\/\/\S+)/,
    (match) => match[1]!,
  );
}

/** Makes a test server started with `sessions` forget every session it has. */
export async function forgetSessions(server: McpServerProcess) {
  const response = await fetch(new URL("/forget-sessions", server.url), { method: "POST" });
  if (response.status !== 204) throw new Error(`forget-sessions answered ${response.status}`);
}

/** The tools the SDK-made test server has run so far, asked through the SDK's own client. */
export async function toolsCalled(url: string): Promise<string[]> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const result = await client.callTool({ name: "calls", arguments: {} });
    return JSON.parse((result.content as { text: string }[])[0]!.text);
  } finally {
    await client.close();
  }
}

/** How many `gated` calls wait at the test server's gate. */
export async function waitingAtGate(server: McpServerProcess) {
  const answer = await fetch(new URL("/gate", server.url));
  return ((await answer.json()) as { waiting: number }).waiting;
}

/** Lets every `gated` call waiting at the test server's gate answer. */
export async function openGate(server: McpServerProcess) {
  await fetch(new URL("/gate", server.url), { method: "POST" });
}
