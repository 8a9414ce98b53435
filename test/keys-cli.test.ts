// `npm run keys` against a shared database, with two server processes behind it: a key created by
// the command works on both instances, `list` shows it without its secret, and `revoke` reaches
// both — with Redis at once (the instances poll the database only hourly here, so the socket on
// the other instance can only have been closed by the notice through Redis). `keys budget` sets,
// lists and removes budgets that a server process holds its callers to.
import type { GraphQLResult } from "./support/graphql.js";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createClient as createWsClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import OpenAI from "openai";
import { type ServerProcess, startServerProcess } from "./support/processes.js";
import { startUpstreamStandIn } from "./support/upstream-stand-in.js";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const redisUrl = process.env.TEST_REDIS_URL;
const HOUR = String(3_600_000);
const runs = Boolean(process.env.TEST_DATABASE_URL && redisUrl);
const title = runs
  ? "npm run keys with two instances"
  : "npm run keys with two instances (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL, shared by processes)";

/** The command's exit code and what it printed, failed or not. */
const keysExit = async (...args: string[]) =>
  run(process.execPath, ["--import", "tsx", "src/auth/keys-cli.ts", ...args], {
    cwd: repoRoot,
    env: { ...process.env, REDIS_URL: redisUrl, LOG_LEVEL: "silent" },
  }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );

const keys = async (...args: string[]) => {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "src/auth/keys-cli.ts", ...args], {
    cwd: repoRoot,
    env: { ...process.env, REDIS_URL: redisUrl, LOG_LEVEL: "silent" },
  });
  return stdout;
};

const call = async (server: ServerProcess, key: string | null) =>
  (
    await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key && { authorization: `Bearer ${key}` }) },
      body: JSON.stringify({ query: "{ dialogs(first: 1) { edges { node { id } } } }" }),
    })
  ).status;

describe.runIf(runs)(title, () => {
  it("creates, lists and revokes keys; a revocation closes sockets on every instance at once", async () => {
    const [a, b] = await Promise.all([
      startServerProcess({ REDIS_URL: redisUrl!, AUTH: "required", REVOCATION_POLL_MS: HOUR }),
      startServerProcess({ REDIS_URL: redisUrl!, AUTH: "required", REVOCATION_POLL_MS: HOUR }),
    ]);
    const created = await keys("create", "--tenant", "cli-tenant", "--name", "from the test");
    const key = /\b(dq_[A-Za-z0-9_-]{43})\b/.exec(created)![1]!;
    const id = /Created (key_\w+)/.exec(created)![1]!;
    expect([await call(a, key), await call(b, key), await call(a, null)]).toEqual([200, 200, 401]);

    const listed = await keys("list", "--tenant", "cli-tenant");
    expect(listed).toContain(id);
    expect(listed).toContain(key.slice(0, 10));
    expect(listed).not.toContain(key);

    const client = createWsClient({
      url: `${b.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${key}` },
    });
    const closed = new Promise<number>((resolve) =>
      client.on("closed", (event) => resolve((event as { code: number }).code)),
    );
    const dialog = await fetch(`${a.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({
        query: `mutation { createResponse(input: { input: [{ human: { content: "hi" } }] }) { ... on Response { dialog { id } } } }`,
      }),
    }).then((response) => response.json() as Promise<GraphQLResult>);
    const subscription = client.iterate({
      query: `subscription($d: ID!) { historyDelta(dialogId: $d, afterSeq: 0) { seq } }`,
      variables: { d: (dialog.data as { createResponse: { dialog: { id: string } } }).createResponse.dialog.id },
    });
    expect((await subscription.next()).value).toEqual({ data: { historyDelta: { seq: 1 } } });

    expect(await keys("revoke", id)).toContain(`Revoked ${id}`);
    // Neither instance polls within the test (an hour apart): the close came through Redis.
    expect(await closed).toBe(4403);
    expect([await call(a, key), await call(b, key)]).toEqual([401, 401]);
    await client.dispose();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("npm run keys -- budget", () => {
  it("sets, lists and removes budgets a server holds its callers to; refuses what it cannot act on", async () => {
    const upstream = await startUpstreamStandIn();
    try {
      const server = await startServerProcess({
        AUTH: "required",
        OPENAI_BASE_URL: upstream.url,
        OPENAI_API_KEY: "sk-stand-in",
        UPSTREAM_API: "chat",
      });
      const created = await keys("create", "--tenant", "budget-tenant");
      const key = /\b(dq_[A-Za-z0-9_-]{43})\b/.exec(created)![1]!;
      const id = /Created (key_\w+)/.exec(created)![1]!;
      const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: key, maxRetries: 0 });
      const ask = () => openai.responses.create({ model: "gpt-4o-mini", input: "hi" });
      expect((await ask()).status).toBe("completed");

      // A budget the key has already reached (it has spent tokens today): refused before the upstream.
      const set = await keys("budget", "set", "--key", id, "--tokens", "1", "--per", "day");
      const budgetId = /Set (\S+): key /.exec(set)?.[1];
      expect(set).toBe(`Set ${budgetId}: key ${id}: 1 tokens per day.\n`);
      const calls = upstream.requests.length;
      await expect(ask()).rejects.toMatchObject({ status: 429, code: "insufficient_quota" });
      expect(upstream.requests.length).toBe(calls);

      const tenantBudget = await keys("budget", "set", "--tenant", "budget-tenant", "--cost", "2.5", "--per", "month");
      expect(tenantBudget).toMatch(/: tenant budget-tenant: 2\.5 \(cost\) per month\.\n$/);
      const listed = (await keys("budget", "list", "--tenant", "budget-tenant")).trim().split("\n");
      expect(listed).toHaveLength(2);
      expect(listed).toContain(`${budgetId}  budget-tenant  key ${id}: 1 tokens per day`);
      expect(listed).toContainEqual(
        expect.stringMatching(/ {2}budget-tenant {2}tenant budget-tenant: 2\.5 \(cost\) per month$/),
      );
      expect(await keys("budget", "list", "--tenant", "nobody")).toBe("No budgets.\n");

      // Removed, the key is let through again (the tenant's budget is far away).
      expect(await keys("budget", "remove", budgetId!)).toBe(`Removed ${budgetId}.\n`);
      expect((await ask()).status).toBe("completed");

      // What it cannot act on is refused with a message and a failing exit code, changing nothing.
      const refusals = await Promise.all([
        keysExit("budget", "set", "--key", id, "--per", "day"),
        keysExit("budget", "set", "--key", id, "--tenant", "budget-tenant", "--tokens", "5", "--per", "day"),
        keysExit("budget", "set", "--key", id, "--tokens", "5", "--per", "week"),
        keysExit("budget", "set", "--key", "key_NOPE", "--tokens", "5", "--per", "day"),
        keysExit("budget", "remove", budgetId!),
      ]);
      expect(refusals.map(({ code }) => code)).toEqual(refusals.map(() => 2));
      expect(refusals.map(({ output }) => output.trim().split("\n")[0])).toEqual([
        expect.stringContaining("budget set needs --tokens <n> or --cost <amount>"),
        expect.stringContaining("budget set needs --key <key id> or --tenant <tenant>"),
        expect.stringContaining("budget set needs --per day or --per month"),
        expect.stringContaining("no API key key_NOPE"),
        expect.stringContaining(`no budget ${budgetId}`),
      ]);
      expect((await keys("budget", "list", "--tenant", "budget-tenant")).trim().split("\n")).toHaveLength(1);
    } finally {
      await upstream.close();
    }
    // A dozen command processes, each starting tsx and opening the database.
  }, 180_000);
});
