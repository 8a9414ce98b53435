// The README's five-minute tour runs as written: its shell blocks run in order in one bash session
// against a started server (the only change: the port, 4000 → the test server's), the watch
// example in the background until the write after it has reached it, and its GraphQL blocks are
// sent as they are. So a broken example fails here instead of in a new user's terminal.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { parseDuration } from "../src/duration.js";
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

// Before the examples that make API keys: the snippets run as the README's reader runs them, on a
// server in development mode (no key).
describe("README's streaming example (Watch an answer being typed)", () => {
  it("runs as written: the agent's deltas reach the SSE watcher as they are typed, then the committed answer", async () => {
    const blocks = blocksOf("Watch an answer being typed");
    const [watch] = blocks.filter((b) => b.language === "sh");
    const [agent] = blocks.filter((b) => b.language === "ts");
    const server = await startTestServer();
    const at = (code: string) => code.replaceAll("localhost:4000", `localhost:${new URL(server.url).port}`);
    const write = async (content: string, dialogId?: string) => {
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `mutation ($d: ID, $c: String!) { createResponse(input: { dialogId: $d, input: [{ human: { content: $c } }], output: [{ ai: { content: $c } }] }) { ... on Response { dialog { id } } } }`,
          variables: { d: dialogId, c: content },
        }),
      });
      return ((await response.json()) as { data: { createResponse: { dialog: { id: string } } } }).data.createResponse
        .dialog.id;
    };
    const DIALOG = await write("The tour's dialog");
    const watchOutput = path.join(scratch, "typed.out");
    const bash = spawn("bash", ["-c", `( ${at(watch!.code).trim()}\n) > '${watchOutput}' 2>&1`], {
      detached: true,
      stdio: "ignore",
      env: { ...process.env, DIALOG },
    });
    const watched = () => (existsSync(watchOutput) ? readFileSync(watchOutput, "utf8") : "");
    try {
      // The watcher is subscribed once a write made after its start reaches it (it replays nothing).
      let probes = 0;
      await expect
        .poll(
          async () => {
            if (!watched().includes('"content":"probe')) await write(`probe ${++probes}`, DIALOG);
            return watched();
          },
          { timeout: 15_000, interval: 100 },
        )
        .toContain('"content":"probe');
      // Inside the repository's node_modules, so that graphql-ws and ws resolve; run by tsx as written.
      const dir = mkdtempSync(path.join(ROOT, "node_modules/.readme-snippet-"));
      try {
        const file = path.join(dir, "agent.mts");
        writeFileSync(file, at(agent!.code));
        await runNode(file, { DIALOG }, ["--import", "tsx"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      await expect.poll(watched, { timeout: 10_000 }).toContain('"content":"Once upon a time…"');
      const out = watched();
      expect(out).toContain('"text":{"part":1,"offset":0,"delta":"Once upon"}');
      expect(out).toContain('"text":{"part":1,"offset":9,"delta":" a time…"}');
      const stored = await prisma.response.findFirstOrThrow({
        where: { dialogId: DIALOG },
        orderBy: { createdAt: "desc" },
      });
      expect(stored.status).toBe("COMPLETED");
    } finally {
      try {
        process.kill(-bash.pid!, "SIGTERM");
      } catch {
        // Ended already.
      }
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

describe("README's Responses API snippet", () => {
  it("runs as written with the openai SDK against a server with a model", async () => {
    const [snippet] = blocksOf("Use it as your Responses API").filter((b) => b.language === "ts");
    expect(snippet!.code).toContain("client.responses.delete(");
    const { server, key } = await startGeneratingServer();
    // Inside the repository's node_modules, so that `import OpenAI from "openai"` resolves.
    const dir = mkdtempSync(path.join(ROOT, "node_modules/.readme-snippet-"));
    try {
      const file = path.join(dir, "snippet.mjs");
      writeFileSync(file, snippet!.code.replaceAll("http://localhost:4000", server.url));
      const { stdout } = await runNode(file, { DIALOGQL_KEY: key });
      // The stand-in's answer, streamed by the snippet's loop.
      expect(stdout).toContain("Hello from the stand-in.");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function runNode(file: string, env: Record<string, string>, nodeOptions: string[] = []) {
  return new Promise<{ stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeOptions, file], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => (code === 0 ? resolve({ stdout }) : reject(new Error(`exit ${code}: ${stderr}`))));
  });
}

describe("docs/operations.md", () => {
  const config = readFileSync(path.join(ROOT, "src/config.ts"), "utf8");
  const schema = config.slice(config.indexOf("const schema = z.object({"));
  const body = schema.slice(0, schema.indexOf("\n});"));
  const settings = [...body.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
  const docs = readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
  const table = docs.slice(
    docs.indexOf("## Configuration"),
    docs.indexOf("\n## ", docs.indexOf("## Configuration") + 5),
  );
  // Each row: the variables it names (first cell) and its defaults (second cell), in order.
  const rows = [...table.matchAll(/^\| (`[A-Z][^|]*) \| ([^|]*) \|/gm)].map((m) => ({
    names: [...m[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((n) => n[1]!),
    defaults: m[2]!.split(/,\s+/).map((cell) => cell.trim()),
  }));

  it("documents every setting the configuration reads, each once", () => {
    expect(settings.length).toBeGreaterThan(20);
    const named = rows.flatMap((row) => row.names);
    for (const setting of settings)
      expect(
        named.filter((n) => n === setting),
        setting,
      ).toHaveLength(1);
    // and nothing the configuration does not read (DOTENV_FILE is read before it, by load-env.ts)
    expect(named.filter((n) => !settings.includes(n))).toEqual(["DOTENV_FILE"]);
  });

  it("gives each setting the default the configuration has", () => {
    // Literal defaults: count(n), countOrOff(n), .default(n) and .default("text").
    const literal = new Map<string, string>();
    for (const [, name, expression] of body.matchAll(/^\s+([A-Z][A-Z0-9_]+): (.*),$/gm)) {
      const number = /(?:count|countOrOff)\(([\d_ *]+)\)|\.default\(([\d_ *]+)\)$/.exec(expression!);
      const text = /\.default\("([^"]*)"\)$/.exec(expression!);
      const product = number?.[1] ?? number?.[2];
      if (product)
        literal.set(name!, String(product.split("*").reduce((a, b) => a * Number(b.trim().replaceAll("_", "")), 1)));
      else if (text?.[1]) literal.set(name!, text[1]);
    }
    expect(literal.size).toBeGreaterThan(30);
    const durations = new Set([...body.matchAll(/^\s+([A-Z][A-Z0-9_]+): duration\(/gm)].map((m) => m[1]!));
    for (const [name, value] of literal) {
      const row = rows.find((r) => r.names.includes(name))!;
      const cell =
        row.names.length === row.defaults.length ? row.defaults[row.names.indexOf(name)]! : row.defaults.join(", ");
      // A duration is written as people write it (`1m`); its milliseconds must be the default's.
      if (durations.has(name)) expect(parseDuration(cell.replaceAll("`", "")), name).toBe(Number(value));
      else expect(cell, name).toContain(`\`${value}\``);
    }
  });
});

describe(".env.example", () => {
  const example = readFileSync(path.join(ROOT, ".env.example"), "utf8");

  it("names only files that exist", () => {
    const files = [...example.matchAll(/\b((?:docs\/)?[\w-]+\.md)\b/g)].map((m) => m[1]!);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(path.join(ROOT, file)), file).toBe(true);
  });

  it("offers every setting the configuration reads (docs/operations.md's table says what each does)", () => {
    const config = readFileSync(path.join(ROOT, "src/config.ts"), "utf8");
    const schema = config.slice(config.indexOf("const schema = z.object({"));
    const settings = [...schema.slice(0, schema.indexOf("\n});")).matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map(
      (m) => m[1]!,
    );
    expect(settings.length).toBeGreaterThan(20);
    const missing = settings.filter((name) => !new RegExp(`^# ${name}=`, "m").test(example));
    expect(missing).toEqual([]);
  });

  it("gives values that work uncommented: a note after one is a comment, not part of it", () => {
    const lines = example.split("\n").filter((line) => /^# [A-Z][A-Z0-9_]+=/.test(line));
    const values = parseEnv(lines.map((line) => line.slice(2)).join("\n"));
    for (const [name, value] of Object.entries(values)) expect(value, name).not.toMatch(/\s|\(/);
  });

  it("offers the settings a newcomer sets first, model settings included", () => {
    for (const name of [
      "PORT",
      "HOST",
      "DATABASE_URL",
      "DATA_DIR",
      "REDIS_URL",
      "AUTH",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "ANTHROPIC_API_KEY",
      "DEFAULT_MODEL",
      "MODEL_PROVIDERS",
      "UPSTREAM_API",
    ])
      expect(example, name).toMatch(new RegExp(`^# ${name}=`, "m"));
  });
});
