// `npm run keys` against a shared database, with two server processes behind it: a key created by
// the command works on both instances, `list` shows it without its secret, and `revoke` reaches
// both — with Redis at once (the instances poll the database only hourly here, so the socket on
// the other instance can only have been closed by the notice through Redis).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createClient as createWsClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type ServerProcess, startServerProcess } from "./support/processes.js";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const redisUrl = process.env.TEST_REDIS_URL;
const HOUR = String(3_600_000);
const runs = Boolean(process.env.TEST_DATABASE_URL && redisUrl);
const title = runs
  ? "npm run keys with two instances"
  : "npm run keys with two instances (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL, shared by processes)";

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
    }).then((response) => response.json() as Promise<any>);
    const subscription = client.iterate({
      query: `subscription($d: ID!) { historyDelta(dialogId: $d, afterSeq: 0) { seq } }`,
      variables: { d: dialog.data.createResponse.dialog.id },
    });
    expect((await subscription.next()).value).toEqual({ data: { historyDelta: { seq: 1 } } });

    expect(await keys("revoke", id)).toContain(`Revoked ${id}`);
    // Neither instance polls within the test (an hour apart): the close came through Redis.
    expect(await closed).toBe(4403);
    expect([await call(a, key), await call(b, key)]).toEqual([401, 401]);
    await client.dispose();
  });
});
