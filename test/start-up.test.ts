// `npm start` as a new user meets it: on a fresh clone (no ./data yet), from a working directory
// with a `.env`, binding every interface. The new database comes from the PGlite template (not
// initdb), the settings in `.env` are used, the log is JSON lines, and every URL the start-up log
// prints is really served.
import { type ChildProcess, spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";

const ROOT = path.resolve(import.meta.dirname, "..");
const children: ChildProcess[] = [];
const scratch: string[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

interface LogLine {
  level: number;
  time: string;
  msg: string;
  [field: string]: unknown;
}

/** Starts dist/main.js (what `npm start` runs) in `cwd`; resolves with its log once listening. */
function startIn(cwd: string, env: Record<string, string>) {
  const inherited = { ...process.env };
  // The settings under test come from .env; the test runner's own must not shadow them.
  for (const name of ["PORT", "HOST", "DATA_DIR", "LOG_LEVEL", "DATABASE_URL", "REDIS_URL", "NODE_ENV"])
    delete inherited[name];
  const child = spawn(process.execPath, [path.join(ROOT, "dist/main.js")], {
    cwd,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  const lines = () =>
    output
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
  return new Promise<{ lines: () => LogLine[]; stop: () => Promise<void> }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('"listening on ')) return;
      resolve({
        lines,
        stop: () =>
          new Promise((done) => {
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: ROOT });
});

describe.skipIf(process.env.TEST_DATABASE_URL)("the first `npm start` of a fresh clone", () => {
  it("starts from the template although ./data is missing, reads .env, and serves the URLs it prints", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "dialogql-first-start-"));
    scratch.push(cwd);
    writeFileSync(path.join(cwd, ".env"), "PORT=0\nHOST=0.0.0.0\nLOG_LEVEL=info\nDATA_DIR=./data\nRETENTION=7d\n");
    expect(existsSync(path.join(cwd, "data"))).toBe(false);

    const server = await startIn(cwd, {});
    try {
      const messages = server.lines().map((line) => line.msg);
      expect(messages.join("\n")).toMatch(/new database from the PGlite template with \d+ migrations/);
      expect(messages.join("\n")).not.toContain("initdb");
      expect(existsSync(path.join(cwd, "data/pglite/PG_VERSION"))).toBe(true);
      // .env was read: its RETENTION switched the sweeper on.
      expect(messages).toContain("retention: dialogs idle for 7d are deleted");
      // What a newcomer needs to know first: the database, live history, auth and the models.
      expect(messages.find((m) => m.startsWith("dialogql on "))).toMatch(/embedded PostgreSQL|PGlite/i);
      expect(messages).toContain("live history: in-process");
      expect(messages).toContain(
        "models: none configured (set OPENAI_API_KEY and/or OPENAI_BASE_URL, or ANTHROPIC_API_KEY); the viewer writes turns by hand",
      );

      // Every line is a JSON object with a time and a level.
      for (const line of server.lines()) expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT/);

      // The bound address is said as it is, and the URL to use from this machine beside it.
      const listening = messages.find((m) => m.startsWith("listening on "))!;
      const port = /:(\d+) /.exec(listening)![1];
      expect(listening).toBe(`listening on http://0.0.0.0:${port} (every interface; here: http://localhost:${port})`);
      const printed = messages.join("\n").match(/https?:\/\/localhost:\d+\/[\w/]*/g)!;
      expect(new Set(printed)).toEqual(
        new Set(["/", "/graphql", "/health", "/ready", "/metrics"].map((p) => `http://localhost:${port}${p}`)),
      );
      for (const url of printed) {
        const response = await fetch(url, { headers: { accept: "text/html" } });
        expect(response.status, url).toBe(200);
      }
      expect(messages.join("\n")).toContain(`WebSocket: ws://localhost:${port}/graphql`);

      // A request line: id, tenant, operation name, status, duration.
      const answer = await fetch(`http://localhost:${port}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": "first-start-1" },
        body: JSON.stringify({
          query: "query Dialogs { dialogs(first: 1) { edges { node { id } } } }",
          operationName: "Dialogs",
        }),
      });
      expect(answer.status).toBe(200);
      await expect
        .poll(() => server.lines().find((line) => line.requestId === "first-start-1"))
        .toMatchObject({
          msg: "request",
          operation: "Dialogs",
          tenant: "default",
          status: 200,
          method: "POST",
          path: "/graphql",
        });
      const logged = server.lines().find((line) => line.requestId === "first-start-1")!;
      expect(typeof logged.durationMs).toBe("number");

      // An operation over WebSocket has no HTTP response: it gets a line of its own.
      const socket = createClient({
        url: `ws://localhost:${port}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      try {
        await new Promise<void>((resolve, reject) =>
          socket.subscribe(
            { query: "query OverSocket { dialogs(first: 1) { edges { cursor } } }", operationName: "OverSocket" },
            { next: () => undefined, error: reject, complete: resolve },
          ),
        );
      } finally {
        await socket.dispose();
      }
      await expect
        .poll(() => server.lines().find((line) => line.operation === "OverSocket"))
        .toMatchObject({ msg: "operation", transport: "websocket", type: "query", tenant: "default" });
    } finally {
      await server.stop();
    }
  });

  it("binds loopback unless HOST says otherwise, and names the configured models", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "dialogql-loopback-"));
    scratch.push(cwd);
    const server = await startIn(cwd, {
      PORT: "0",
      DATA_DIR: "memory://",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      DEFAULT_MODEL: "llama3",
    });
    try {
      const messages = server.lines().map((line) => line.msg);
      expect(messages.find((m) => m.startsWith("listening on "))).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      expect(messages).toContain(
        "models: OpenAI-compatible at http://127.0.0.1:9/v1 (Chat Completions API); default model llama3",
      );
    } finally {
      await server.stop();
    }
  });

  it("says in one line, with no stack trace, that the port is taken", async () => {
    const holder = createNetServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as AddressInfo;
    const cwd = mkdtempSync(path.join(tmpdir(), "dialogql-busy-port-"));
    scratch.push(cwd);
    try {
      const inherited = { ...process.env };
      for (const name of ["PORT", "HOST", "DATA_DIR", "LOG_LEVEL", "DATABASE_URL", "REDIS_URL", "NODE_ENV"])
        delete inherited[name];
      const child = spawn(process.execPath, [path.join(ROOT, "dist/main.js")], {
        cwd,
        env: { ...inherited, PORT: String(port), DATA_DIR: "memory://" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let output = "";
      child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(1);
      const errors = output
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine)
        .filter((line) => line.level >= 50);
      expect(errors.map((line) => line.msg)).toEqual([
        `cannot listen on 127.0.0.1:${port}: the port is already in use; stop what holds it, or set PORT`,
      ]);
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      holder.close();
    }
  });
});
