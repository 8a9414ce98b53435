// /health and /ready on a port of their own (HEALTH_PORT), answered by a thread of their own: the
// load balancer's checks open a new connection each time, and on the main port a new connection
// waits behind a connect storm's; on the main thread a check waits for the loop's current turn.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { listenForHealth } from "../src/server/health-listener.js";
import { startServer } from "../src/server/http-server.js";
import { store, testConfig } from "./support/database.js";

describe("HEALTH_PORT", () => {
  const started = startServer({ store, config: { ...testConfig, HEALTH_PORT: 0 }, port: 0, redisUrl: null });
  afterAll(async () => (await started).close());

  it("answers /health and /ready on a listener of their own, and nothing else there", async () => {
    const server = await started;
    expect(server.healthPort).toEqual(expect.any(Number));
    expect(server.healthPort).not.toBe(server.port);
    const at = (path: string) => fetch(`http://127.0.0.1:${server.healthPort}${path}`);
    const health = await at("/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
    const ready = await at("/ready");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", checks: { database: { ok: true } } });
    const other = await at("/graphql?query=%7B__typename%7D");
    expect(other.status).toBe(404);
    await other.text();
    // Still served on the main port too.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it("is not opened unless asked", async () => {
    const plain = await startServer({ store, config: testConfig, port: 0, redisUrl: null });
    try {
      expect(plain.healthPort).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

// A client in a process of its own (this thread's loop is the one held busy): it asks /health
// every 20 ms on a new connection and prints when each answer came and what it said.
const PROBE = `
const ask = () => fetch(process.env.HEALTH_URL, { headers: { connection: "close" } })
  .then(async (r) => console.log(JSON.stringify({ at: Date.now(), status: r.status, body: await r.json() })))
  .catch((e) => console.log(JSON.stringify({ at: Date.now(), error: e.message })))
  .then(() => setTimeout(ask, 20));
ask();`;

describe("HEALTH_PORT while the event loop is held", () => {
  it("answers while the loop is busy, and 503 stalled once it has not run for HEALTH_STALL_MS", async () => {
    const server = await startServer({
      store,
      config: { ...testConfig, HEALTH_PORT: 0, HEALTH_STALL_MS: 300 },
      port: 0,
      redisUrl: null,
    });
    const probe = spawn(process.execPath, ["-e", PROBE], {
      env: { ...process.env, HEALTH_URL: `http://127.0.0.1:${server.healthPort}/health` },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const answers = createInterface({ input: probe.stdout! })[Symbol.asyncIterator]();
      const next = async () => JSON.parse((await answers.next()).value as string);
      expect(await next()).toMatchObject({ status: 200, body: { status: "ok" } });
      // Hold this thread (the server's event loop) for 1.5 s: no timer, no socket is served here.
      const heldFrom = Date.now();
      while (Date.now() - heldFrom < 1_500);
      const heldUntil = Date.now();
      // The answers printed meanwhile were given by the worker alone.
      const during = [];
      for (let answer = await next(); answer.at <= heldUntil; answer = await next()) {
        if (answer.at >= heldFrom) during.push(answer);
      }
      expect(during.length).toBeGreaterThan(0);
      expect(during.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
      expect(during.filter((answer) => answer.status === 503).at(-1)?.body).toMatchObject({ status: "stalled" });
      // Running again: the next heartbeat makes it live.
      for (let answer = await next(); answer.status !== 200; answer = await next());
    } finally {
      probe.kill();
      await server.close();
    }
  });
});

describe("listenForHealth", () => {
  it("answers /ready from the last readiness, refreshed when older than readyRefreshMs, and 503 once draining", async () => {
    let checks = 0;
    const listener = await listenForHealth(
      {
        health: () => ({ status: 200, body: { status: "ok" } }),
        ready: async () => ({ status: 200, body: { status: "ready", check: ++checks } }),
      },
      { host: "127.0.0.1", port: 0, stallMs: 10_000, readyRefreshMs: 0 },
    );
    try {
      const ready = async () => {
        const response = await fetch(`http://127.0.0.1:${listener.port}/ready`);
        return { status: response.status, body: (await response.json()) as { status: string; check?: number } };
      };
      // Checked once before listening; each answer older than 0 ms asks for the next.
      expect(await ready()).toEqual({ status: 200, body: { status: "ready", check: 1 } });
      let answer = await ready();
      while (answer.body.check === 1) answer = await ready();
      expect(answer.body.check).toBeGreaterThan(1);
      listener.draining();
      while ((answer = await ready()).status === 200);
      expect(answer).toEqual({ status: 503, body: { status: "draining" } });
    } finally {
      await listener.close();
    }
  });
});
