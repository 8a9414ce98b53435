// The README's MCP example runs as written: its TypeScript block, against a started dialogql (the
// stand-in upstream as the model, which calls the echo tool) and server-everything started as its
// shell block says (the only changes: the ports, 4000 and 3001 → the test's).
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createModelCatalog } from "../src/generation/providers.js";
import { startTestServer } from "./support/live.js";
import { startEverythingServer } from "./support/mcp-servers.js";
import { startUpstreamStandIn } from "./support/upstream-stand-in.js";

const ROOT = path.resolve(import.meta.dirname, "..");

function blocksOf(heading: string) {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "${heading}"`).toBeGreaterThan(0);
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ language: m[1]!, code: m[2]! }));
}

describe("README's MCP example", () => {
  it("gets the tool run and the answer, as the example says", async () => {
    const blocks = blocksOf("Tools on MCP servers");
    const shell = blocks.find((b) => b.language === "sh")!.code;
    expect(shell).toContain("MCP_ALLOWED_SERVERS=http://localhost:3001");
    expect(shell).toContain("@modelcontextprotocol/server-everything streamableHttp");
    const upstream = await startUpstreamStandIn();
    upstream.script(
      { output: [{ toolCall: { name: "echo", arguments: '{"message":"hello"}' } }] },
      { output: [{ text: "The echo tool says: Echo: hello" }] },
    );
    const models = createModelCatalog({ OPENAI_BASE_URL: upstream.url, UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0 });
    const [server, everything] = await Promise.all([
      startTestServer({ models }),
      startEverythingServer("streamableHttp"),
    ]);
    const code = blocks
      .find((b) => b.language === "ts")!
      .code.replaceAll("localhost:4000", new URL(server.url).host)
      .replaceAll("localhost:3001", new URL(everything.url).host);
    // Inside the repository, so that `openai` resolves from its node_modules.
    const dir = path.join(ROOT, "node_modules/.cache/dialogql");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `readme-mcp-${process.pid}.mts`);
    writeFileSync(file, code);
    const child = spawn(process.execPath, ["--import", "tsx", file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exit = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(exit, output).toBe(0);
    expect(output).toContain("[ 'mcp_list_tools', 'mcp_call', 'message' ]");
    expect(output).toContain("The echo tool says: Echo: hello");
    expect(upstream.requests.at(-1)!.body.messages!.at(-1)).toMatchObject({ role: "tool", content: "Echo: hello" });
    await upstream.close();
  });
});
