// The README's five-minute tour runs as written: its shell blocks run in order in one bash session
// against a started server (the only change: the port, 4000 → the test server's), the watch
// example in the background until the write after it has reached it, and its GraphQL blocks are
// sent as they are. So a broken example fails here instead of in a new user's terminal.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer } from "./support/generating-server.js";
import { startTestServer } from "./support/live.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const scratch = mkdtempSync(path.join(tmpdir(), "dialogql-readme-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Block {
  language: string;
  code: string;
}

/** The fenced code blocks of the README's section `heading`, in order. */
function blocksOf(heading: string): Block[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "${heading}"`).toBeGreaterThan(0);
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ language: m[1]!, code: m[2]! }));
}

/** A block that keeps running until stopped (the live subscription). */
const isLongRunning = (code: string) => /curl -s?N\b/.test(code);

describe("README's five-minute tour", () => {
  const blocks = blocksOf("Five-minute tour");

  it("has the write, watch, read and export examples", () => {
    const shell = blocks.filter((b) => b.language === "sh").map((b) => b.code);
    expect(shell.length).toBeGreaterThanOrEqual(5);
    expect(shell.some(isLongRunning)).toBe(true);
    expect(shell.join("\n")).toContain("createResponse");
    expect(shell.join("\n")).toContain("messages(format: OPENAI_CHAT)");
  });

  it("runs its shell examples as written, in order, against a started server", async () => {
    const server = await startTestServer();
    const port = new URL(server.url).port;
    const watchOutput = path.join(scratch, "watch.out");
    const shell = blocks
      .filter((b) => b.language === "sh")
      .map((b) => b.code.replaceAll("localhost:4000", `localhost:${port}`));
    const script = [
      "set -e -o pipefail",
      ...shell.map((code, index) =>
        isLongRunning(code)
          ? `echo '@@${index}'\n( ${code.trim()}\n) > '${watchOutput}' 2>&1 &`
          : `echo '@@${index}'\n${code}`,
      ),
      "echo '@@end'",
    ].join("\n");

    const bash = spawn("bash", ["-c", script], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    bash.stdout.on("data", (chunk) => (output += chunk));
    bash.stderr.on("data", (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => bash.once("exit", resolve));
    try {
      expect(code, output).toBe(0);
      // curl prints no final newline: a marker may follow output on the same line.
      const outputs = output.split(/@@\S+\n/).slice(1);
      const byCommand = shell.map((code, index) => ({ code, output: outputs[index] ?? "" }));
      for (const { code, output } of byCommand) expect(output, code).not.toContain('"errors"');

      const [write, , next, read, rest, exported] = byCommand;
      const dialogId = write!.output.trim();
      expect(dialogId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(next!.output).toContain('"status":"COMPLETED"');
      expect(read!.output).toContain("And times 3?");
      expect(read!.output).toContain('"totalReasoning":1');
      expect(JSON.parse(rest!.output)).toMatchObject({ dialog_id: dialogId, total_messages: 5, total_reasoning: 1 });
      expect(JSON.parse(exported!.output).data.dialog.head.messages).toEqual([
        { role: "user", content: "What is 2 + 2?" },
        { role: "assistant", content: "4" },
        { role: "user", content: "And times 3?" },
        { role: "assistant", content: "12" },
      ]);
      // The watcher replayed the first write and received the second one live.
      await expect.poll(() => readFileSync(watchOutput, "utf8"), { timeout: 10_000 }).toContain('"seq":5');
      const watched = readFileSync(watchOutput, "utf8");
      expect(watched).toContain('"seq":3');
      expect(watched).toContain("And times 3?");
    } finally {
      try {
        process.kill(-bash.pid!, "SIGTERM");
      } catch {
        // Everything in the group has ended already.
      }
    }
  });

  it("runs its GraphQL examples as written", async () => {
    const server = await startTestServer();
    const graphql = blocks.filter((b) => b.language === "graphql");
    expect(graphql.length).toBeGreaterThan(0);
    for (const { code } of graphql) {
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: code }),
      });
      const result = await response.json();
      expect(result.errors, code).toBeUndefined();
      expect(result.data, code).toBeTruthy();
    }
  });

  it("runs the self-contained GraphQL examples of docs/ as written (those without placeholders)", async () => {
    const server = await startTestServer();
    const docs = readdirSync(path.join(ROOT, "docs")).filter((file) => file.endsWith(".md"));
    const examples = docs.flatMap((file) =>
      [...readFileSync(path.join(ROOT, "docs", file), "utf8").matchAll(/```graphql\n([\s\S]*?)```/g)]
        .map((m) => m[1]!)
        .filter((code) => !/[…$]/.test(code) && !code.trimStart().startsWith("subscription"))
        .map((code) => ({ file, code })),
    );
    expect(examples.length).toBeGreaterThan(0);
    for (const { file, code } of examples) {
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: code }),
      });
      const result = await response.json();
      expect(result.errors, `${file}: ${code}`).toBeUndefined();
      expect(JSON.stringify(result.data), `${file}: ${code}`).not.toContain('"code"');
    }
  });
});

describe("README's Chat Completions example", () => {
  it("runs as written against a started server: the second request continues the first turn", async () => {
    const [example] = blocksOf("Use it as your Chat Completions endpoint").filter((b) => b.language === "ts");
    const g = await startGeneratingServer();
    g.upstream.script({ output: [{ text: "Hello, Ada!" }] }, { output: [{ text: "Your name is Ada." }] });
    const code = example!.code.replaceAll("http://localhost:4000", g.server.url);
    // Plain JavaScript as well as TypeScript, so node runs it as it stands, resolving `openai` here.
    const node = spawn(process.execPath, ["--input-type=module"], {
      cwd: ROOT,
      env: { ...process.env, DIALOGQL_KEY: g.key },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    node.stdout.on("data", (chunk) => (output += chunk));
    node.stderr.on("data", (chunk) => (output += chunk));
    node.stdin.end(code);
    const exit = await new Promise<number | null>((resolve) => node.once("exit", resolve));
    expect(exit, output).toBe(0);
    expect(output.trim()).toBe("Your name is Ada.");
    const [second, first] = await prisma.response.findMany({
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 2,
      select: { id: true, dialogId: true, previousResponseId: true },
    });
    expect(second).toMatchObject({ dialogId: first!.dialogId, previousResponseId: first!.id });
  });
});

describe("docs/operations.md", () => {
  it("documents every setting the configuration reads", () => {
    const config = readFileSync(path.join(ROOT, "src/config.ts"), "utf8");
    const schema = config.slice(config.indexOf("const schema = z.object({"));
    const settings = [...schema.slice(0, schema.indexOf("\n});")).matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map(
      (m) => m[1]!,
    );
    expect(settings.length).toBeGreaterThan(20);
    const docs = readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
    const table = docs.slice(docs.indexOf("## Configuration"));
    for (const setting of settings) expect(table, setting).toContain(`\`${setting}\``);
  });
});
