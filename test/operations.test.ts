// The operations surface of a running server: /health says the process is up (and what is degraded),
// /ready says whether it can serve (database, migrations; Redis away is degraded, not unready — issue
// 29, finding 7) with an honest status code, /metrics is Prometheus
// text whose counters move with real traffic, and a path that is neither API nor viewer is 404
// while the viewer's own routes still open the viewer.
import { database, store, testConfig } from "./support/database.js";
import { listMigrations } from "../src/db/migration-files.js";
import { startServer } from "../src/server/http-server.js";
import { print } from "graphql";
import { describe, expect, it } from "vitest";
import { HISTORY_DELTA, httpExecutor, startTestServer, wsClient } from "./support/live.js";
import { startServerProcess } from "./support/processes.js";
import { startOwnRedis } from "./support/redis-server.js";
import { startTcpProxy } from "./support/tcp-proxy.js";
import { graphql } from "../src/client/generated/index.js";

const get = (url: string, init?: RequestInit) => fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });

/** The value of one sample in Prometheus text (0 when absent). */
function sample(text: string, name: string, labels = ""): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ""} `));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

const CREATE_RESPONSE = graphql(`
  mutation OperationsCreateResponse {
    createResponse(input: { input: [{ human: { content: "hi" } }] }) {
      ... on Response {
        dialog {
          id
        }
      }
    }
  }
`);

const CREATE_RESPONSE2 = graphql(`
  mutation OperationsCreateResponse2($d: ID!) {
    createResponse(input: { dialogId: $d, input: [{ human: { content: "again" } }] }) {
      __typename
    }
  }
`);

describe("operations endpoints", () => {
  it("/health is 200 and /ready lists passing checks", async () => {
    const server = await startTestServer();
    const health = await get(`${server.url}/health`);
    expect(health.status).toBe(200);

    // Ready once Redis (when configured) has connected, which may take a moment after the start.
    await expect.poll(async () => (await get(`${server.url}/ready`)).status, { timeout: 10_000 }).toBe(200);
    const ready = await get(`${server.url}/ready`);
    const body = await ready.json();
    expect(ready.status, JSON.stringify(body)).toBe(200);
    expect(body.checks.database).toEqual({ ok: true });
    expect(body.checks.migrations).toEqual({ ok: true });
    if (process.env.TEST_REDIS_URL) expect(body.checks.redis).toEqual({ ok: true });
    else expect(body.checks.redis).toBeUndefined();
  });

  it("/ready is 503 while a migration is not applied, and 200 again once it is", async () => {
    const server = await startTestServer();
    const [last] = (await listMigrations()).slice(-1);
    const [row] = await database.query<Record<string, unknown>>(
      `DELETE FROM "_prisma_migrations" WHERE migration_name = $1 RETURNING id, checksum, migration_name`,
      [last!.name],
    );
    try {
      const ready = await get(`${server.url}/ready`);
      expect(ready.status).toBe(503);
      const body = await ready.json();
      expect(body.status).toBe("not ready");
      expect(body.checks.migrations).toEqual({ ok: false, detail: `pending: ${last!.name}` });
      expect(body.checks.database).toEqual({ ok: true });
    } finally {
      await database.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
        [row!.id, row!.checksum, row!.migration_name],
      );
    }
    expect((await get(`${server.url}/ready`)).status).toBe(200);
  });

  it("a Redis stall leaves /ready 200 (degraded, not unready); /health and dialogql_redis_connected say Redis is away", async () => {
    const redis = await startOwnRedis();
    const server = await startServer({
      store,
      config: testConfig,
      port: 0,
      redisUrl: redis.url,
      limits: { rateLimitRequests: 0 },
    });
    const connected = async () => sample(await (await get(`${server.url}/metrics`)).text(), "dialogql_redis_connected");
    try {
      await expect.poll(async () => (await get(`${server.url}/ready`)).status, { timeout: 10_000 }).toBe(200);
      // Ready does not wait for Redis (it is optional): wait for the connection before asking /health.
      await expect.poll(connected, { timeout: 10_000 }).toBe(1);
      expect(await (await get(`${server.url}/health`)).json()).toEqual({ status: "ok" });

      redis.pause(); // SIGSTOP: connections stay open, nothing answers
      await expect.poll(connected, { timeout: 15_000 }).toBe(0);
      const ready = await get(`${server.url}/ready`);
      const body = await ready.json();
      expect(ready.status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({
        status: "degraded",
        ready: true,
        degraded: ["redis"],
        checks: { database: { ok: true }, migrations: { ok: true }, redis: { ok: false, required: false } },
      });
      const health = await get(`${server.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({
        status: "degraded",
        degraded: { redis: expect.stringContaining("delivered on this instance only") },
      });
      // It serves meanwhile: a write is acknowledged.
      const run = httpExecutor(server);
      const written = await run(CREATE_RESPONSE);
      expect(written.createResponse).toMatchObject({ dialog: { id: expect.any(String) } });

      redis.resume();
      await expect.poll(connected, { timeout: 15_000 }).toBe(1);
      await expect
        .poll(async () => (await get(`${server.url}/health`)).json(), { timeout: 10_000 })
        .toEqual({ status: "ok" });
      expect(await (await get(`${server.url}/ready`)).json()).toMatchObject({ status: "ready", degraded: [] });
    } finally {
      redis.resume();
      await server.close();
      await redis.kill();
    }
  });

  it("Redis killed: /ready stays 200 (degraded) and comes back to ready when Redis restarts", async () => {
    const redis = await startOwnRedis();
    const server = await startServer({ store, config: testConfig, port: 0, redisUrl: redis.url });
    try {
      await expect
        .poll(async () => (await (await get(`${server.url}/ready`)).json()).status, { timeout: 10_000 })
        .toBe("ready");
      await redis.kill();
      await expect
        .poll(async () => (await (await get(`${server.url}/ready`)).json()).status, { timeout: 10_000 })
        .toBe("degraded");
      expect((await get(`${server.url}/ready`)).status).toBe(200);
      await redis.restart();
      await expect
        .poll(async () => (await (await get(`${server.url}/ready`)).json()).status, { timeout: 15_000 })
        .toBe("ready");
    } finally {
      await server.close();
      await redis.kill();
    }
  });

  it("/metrics counts requests, operations, open subscriptions, published deltas and statements", async () => {
    const server = await startTestServer();
    const metrics = async () => {
      const response = await get(`${server.url}/metrics`);
      expect(response.headers.get("content-type")).toContain("text/plain");
      return response.text();
    };
    const before = await metrics();
    const execute = httpExecutor(server);
    const { createResponse } = await execute(CREATE_RESPONSE);
    const dialogId = createResponse.dialog.id as string;

    const client = wsClient(server);
    const deltas: unknown[] = [];
    let unsubscribe: () => void = () => undefined;
    await new Promise<void>((resolve, reject) => {
      unsubscribe = client.subscribe(
        { query: print(HISTORY_DELTA), variables: { dialogId, afterSeq: 0 } },
        { next: (value) => (deltas.push(value), resolve()), error: reject, complete: () => undefined },
      );
    });
    const during = await metrics();
    expect(sample(during, "dialogql_active_subscriptions")).toBe(sample(before, "dialogql_active_subscriptions") + 1);

    await execute(CREATE_RESPONSE2, {
      d: dialogId,
    });
    await expect.poll(() => deltas.length).toBe(2);
    unsubscribe();
    await expect
      .poll(async () => sample(await metrics(), "dialogql_active_subscriptions"))
      .toBe(sample(before, "dialogql_active_subscriptions"));

    const after = await metrics();
    const graphqlPosts = 'method="POST",route="/graphql",status="200"';
    expect(sample(after, "dialogql_http_requests_total", graphqlPosts)).toBe(
      sample(before, "dialogql_http_requests_total", graphqlPosts) + 2,
    );
    expect(sample(after, "dialogql_graphql_operations_total", 'type="mutation"')).toBeGreaterThanOrEqual(
      sample(before, "dialogql_graphql_operations_total", 'type="mutation"') + 2,
    );
    expect(sample(after, "dialogql_history_deltas_published_total")).toBeGreaterThanOrEqual(
      sample(before, "dialogql_history_deltas_published_total") + 2,
    );
    for (const kind of ["read", "write"]) {
      const count = `dialogql_db_statement_duration_seconds_count`;
      expect(sample(after, count, `kind="${kind}"`), kind).toBeGreaterThan(sample(before, count, `kind="${kind}"`));
    }
    expect(after).toContain("dialogql_http_request_duration_seconds_bucket");
    expect(after).toContain("dialogql_process_resident_memory_bytes");
  });

  it("unknown paths are 404; the viewer's routes serve the viewer", async () => {
    const server = await startTestServer();
    for (const path of ["/readiness", "/nope", "/dialogs", "/dialogs/a/b", "/api/unknown", "/missing.js"]) {
      expect((await get(`${server.url}${path}`)).status, path).toBe(404);
    }
    expect((await get(`${server.url}/nope`, { method: "POST", body: "{}" })).status).toBe(404);
    for (const path of ["/", "/dialogs/01JABCDEF", "/dialogs/01JABCDEF/"]) {
      const response = await get(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toContain("text/html");
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "/ready is 503 while PostgreSQL is unreachable, /health stays 200",
    async () => {
      const databaseUrl = new URL(process.env.DATABASE_URL!);
      const proxy = await startTcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
      const throughProxy = new URL(databaseUrl);
      throughProxy.host = `127.0.0.1:${proxy.port}`;
      const server = await startServerProcess({
        DATABASE_URL: throughProxy.toString(),
        DATABASE_CONNECT_TIMEOUT_MS: "1000",
      });
      expect((await get(`${server.url}/ready`)).status).toBe(200);
      await proxy.stop();
      const down = await get(`${server.url}/ready`);
      expect(down.status).toBe(503);
      expect((await down.json()).checks.database.ok).toBe(false);
      expect((await get(`${server.url}/health`)).status).toBe(200);
      await proxy.start();
      await expect.poll(async () => (await get(`${server.url}/ready`)).status, { timeout: 15_000 }).toBe(200);
    },
  );
});
