// /health and /ready on a port of their own (HEALTH_PORT): the load balancer's checks open a new
// connection each time, and on the main port a new connection waits behind a connect storm's.
import { afterAll, describe, expect, it } from "vitest";
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
    expect((await at("/ready")).status).toBe(200);
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
