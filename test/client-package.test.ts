// @dialogql/client as someone outside this repository gets it: packed (`npm pack` builds it),
// installed from the tarball into a new project with a strict tsconfig (exactOptionalPropertyTypes,
// noPropertyAccessFromIndexSignature, and the package's .d.ts checked: no skipLibCheck), compiled
// with tsc, and run with plain Node 20 against a live server: a write over HTTP, then live history
// over WebSocket (the `ws` package) until a second write arrives.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startTestServer } from "./support/live.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const STRICT_TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noPropertyAccessFromIndexSignature: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    types: ["node"],
    outDir: "out",
  },
  include: ["main.ts"],
};

// What a user writes after reading the package's README.
const SCRIPT = `
import WebSocket from "ws";
import { createDialogqlClient, CreateResponseDocument, type HistoryState } from "@dialogql/client";

const url = process.argv[2];
if (!url) throw new Error("usage: node out/main.js <graphql url>");
const client = createDialogqlClient({ url, webSocketImpl: WebSocket });

const first = await client.request(CreateResponseDocument, {
  input: { model: "gpt-4o", input: [{ human: { content: "Hello" } }], output: [{ ai: { content: "Hi!" } }] },
});
if (first.createResponse.__typename !== "Response") throw new Error(first.createResponse.message);
const dialogId = first.createResponse.dialog.id;

const watcher = client.watchHistory(dialogId);
await watcher.until((state: HistoryState) => state.status === "live" && state.events.length === 2, 10_000);
await client.request(CreateResponseDocument, {
  input: { dialogId, input: [{ human: { content: "And now?" } }], output: [{ ai: { content: "Live." } }] },
});
const state = await watcher.until((s) => s.events.length === 4, 10_000);
console.log(JSON.stringify({ dialogId, events: state.events.map((e) => e.__typename), lastSeq: state.lastSeq }));
watcher.close();
await client.dispose();
`;

// About the package, not the database: it runs in the embedded pass only.
describe.skipIf(process.env.TEST_DATABASE_URL)("@dialogql/client from its tarball", () => {
  it("installs without server dependencies, compiles strictly and runs on Node with WebSocket", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "dialogql-client-consumer-"));
    scratch.push(dir);
    // docs/client.md's pack command, as written (its /tmp made this test's directory).
    const docs = readFileSync(path.join(ROOT, "docs/client.md"), "utf8");
    const packCommand = /^(\(cd packages\/client && npm pack [^)]*\))/m.exec(docs)![1]!;
    const { stdout: packed } = await run("sh", ["-c", packCommand.replaceAll("/tmp", dir)], { cwd: ROOT });
    const tarball = path.join(dir, packed.trim().split("\n").at(-1)!);
    expect(path.basename(tarball)).toBe("dialogql-client-0.1.0.tgz");

    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2),
    );
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(STRICT_TSCONFIG, null, 2));
    writeFileSync(path.join(dir, "main.ts"), SCRIPT);
    await run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        tarball,
        "ws@8",
        "typescript@5.9.3",
        "@types/ws@8",
        "@types/node@20",
      ],
      { cwd: dir },
    ).catch((error) => {
      throw new Error(`npm install failed:\n${error.stdout}\n${error.stderr}`);
    });

    const installed = readdirSync(path.join(dir, "node_modules"));
    for (const server of ["@prisma", "prisma", "graphql-yoga", "@electric-sql", "pg", "ioredis", "react", "urql"]) {
      expect(installed, server).not.toContain(server);
    }
    // Only built JavaScript and declarations are shipped.
    const shipped = readdirSync(path.join(dir, "node_modules/@dialogql/client/dist"), { recursive: true }) as string[];
    expect(shipped.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([]);
    expect(existsSync(path.join(dir, "node_modules/@dialogql/client/dist/react/index.js"))).toBe(true);

    await run(process.execPath, [path.join(dir, "node_modules/typescript/bin/tsc"), "-p", "."], { cwd: dir }).catch(
      (error) => {
        throw new Error(`tsc failed:\n${error.stdout}\n${error.stderr}`);
      },
    );

    const server = await startTestServer();
    const { stdout } = await run(process.execPath, ["out/main.js", `${server.url}/graphql`], {
      cwd: dir,
      timeout: 30_000,
    });
    const result = JSON.parse(stdout.trim());
    expect(result.events).toEqual(["HumanEvent", "AiEvent", "HumanEvent", "AiEvent"]);
    expect(result.lastSeq).toBe(4);
  }, 240_000);
});
