// Issue 29, findings 1–3: every long-lived transport (graphql-ws, SSE subscriptions, the Responses
// API's WebSocket mode) goes through one connection policy — counted per API key, per tenant and per
// instance, refused beyond a cap with a clear answer and a log line, bounded in unsent bytes, and
// closed when its key is revoked.
import { afterEach, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { revokeApiKey } from "../src/auth/api-keys.js";
import { logger } from "../src/logger.js";
import { metrics } from "../src/metrics.js";
import type { RunningServer } from "../src/server/http-server.js";
import { store } from "./support/database.js";
import { startGeneratingServer } from "./support/generating-server.js";
import { tenantKey } from "./support/tenants.js";
import { until } from "./support/until.js";

afterEach(() => vi.restoreAllMocks());

const wsUrl = (server: RunningServer, path: string) => `${server.url.replace(/^http/, "ws")}${path}`;

type Outcome =
  | { outcome: "open" }
  | { outcome: "closed"; code: number; reason: string }
  | { outcome: "refused"; status: number; body: string };

const sockets: WebSocket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate();
});

/** Opens a Responses WebSocket-mode socket with `key`: open, or refused at the upgrade (status and body). */
function responsesSocket(server: RunningServer, key: string) {
  const socket = new WebSocket(wsUrl(server, "/v1/responses"), { headers: { authorization: `Bearer ${key}` } });
  sockets.push(socket);
  const outcome = new Promise<Outcome>((resolve) => {
    socket.once("open", () => resolve({ outcome: "open" }));
    socket.once("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk));
      response.on("end", () => resolve({ outcome: "refused", status: response.statusCode ?? 0, body }));
    });
    socket.once("error", () => undefined);
  });
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    socket.once("close", (code, reason) => resolve({ code, reason: String(reason), at: Date.now() })),
  );
  return { socket, outcome, closed };
}

/** A graphql-ws connection with `key`: acknowledged, or closed with a code. */
function graphqlSocket(server: RunningServer, key: string) {
  return new Promise<Outcome>((resolve) => {
    const socket = new WebSocket(wsUrl(server, "/graphql"), "graphql-transport-ws");
    sockets.push(socket);
    socket.once("open", () =>
      socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${key}` } })),
    );
    socket.on("message", (raw) => JSON.parse(String(raw)).type === "connection_ack" && resolve({ outcome: "open" }));
    socket.once("close", (code, reason) => resolve({ outcome: "closed", code, reason: String(reason) }));
  });
}

const streams: AbortController[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.abort();
});

/** POSTs one GraphQL document with `key` and returns its data. */
async function graphqlAs(server: RunningServer, key: string, query: string) {
  const response = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query }),
  });
  return ((await response.json()) as { data: Record<string, { id?: string }> }).data;
}

/** An SSE subscription (to a dialog of its own) with `key`: open (200), or refused with a status and body. */
async function sseSubscription(server: RunningServer, key: string): Promise<Outcome> {
  const created = await graphqlAs(server, key, "mutation { createDialog(input: {}) { ... on Dialog { id } } }");
  const abort = new AbortController();
  streams.push(abort);
  const response = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: `subscription { historyDelta(dialogId: "${created.createDialog!.id}") { seq } }` }),
    signal: abort.signal,
  });
  if (response.status === 200) return { outcome: "open" };
  return { outcome: "refused", status: response.status, body: await response.text() };
}

describe("the Responses API's WebSocket mode", () => {
  it("a socket is closed with 4403 within a second of its key's revocation, and the key opens no other", async () => {
    const g = await startGeneratingServer({}, "revoked-ws");
    const { key, id } = await tenantKey("revoked-ws");
    const { socket, outcome, closed } = responsesSocket(g.server, key);
    expect(await outcome).toEqual({ outcome: "open" });

    await revokeApiKey(store, id);
    const revokedAt = Date.now();
    g.server.live.broadcast({ type: "keyRevoked", keyId: id }); // as `npm run keys -- revoke` does
    const end = await closed;
    expect(end).toMatchObject({ code: 4403, reason: "API key revoked" });
    expect(end.at - revokedAt).toBeLessThan(1_000);
    expect(socket.readyState).toBe(WebSocket.CLOSED);
    expect(await responsesSocket(g.server, key).outcome).toMatchObject({ outcome: "refused", status: 401 });
  });

  it("a revocation made only in the database (no live notice) closes the socket at the next poll", async () => {
    const g = await startGeneratingServer({}, "polled-ws", { revocationPollMs: 100 });
    const { key, id } = await tenantKey("polled-ws");
    const { outcome, closed } = responsesSocket(g.server, key);
    expect(await outcome).toEqual({ outcome: "open" });
    await revokeApiKey(store, id);
    expect(await closed).toMatchObject({ code: 4403, reason: "API key revoked" });
  });

  it("a socket whose client never reads is dropped once its unsent bytes pass the bound", async () => {
    const g = await startGeneratingServer({}, "non-reader", { limits: { queuedBytesPerConnection: 256 * 1024 } });
    const { key } = await tenantKey("non-reader");
    const { socket, outcome } = responsesSocket(g.server, key);
    expect(await outcome).toEqual({ outcome: "open" });
    const dropped = async () => (await metrics.slowClientsDisconnected.get()).values[0]?.value ?? 0;
    const droppedBefore = await dropped();
    // The client stops reading; every turn's events pile up in the server's socket.
    (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    g.upstream.fallback = { output: [{ text: "x".repeat(300_000) }], chunkChars: 20_000 };
    for (let turn = 0; turn < 8; turn++)
      socket.send(JSON.stringify({ type: "response.create", model: "stand-in-1", input: "more" }));
    await until(async () => (await dropped()) > droppedBefore, "the socket dropped", 20_000);
    await until(() => g.server.connections.open === 0, "its place freed", 5_000);
  });
});

describe("one count for every long-lived transport", () => {
  it("graphql-ws, SSE and the Responses socket share the per-key cap; a refusal is clear, logged and counted", async () => {
    const g = await startGeneratingServer({}, "mixed", { limits: { connectionsPerKey: 3, connectionsPerTenant: 10 } });
    const { key } = await tenantKey("mixed");
    const warned = vi.spyOn(logger, "warn");
    const refused = async () => (await metrics.connectionsRefused.get()).values.reduce((sum, v) => sum + v.value, 0);
    const refusedBefore = await refused();

    expect(await graphqlSocket(g.server, key)).toEqual({ outcome: "open" });
    expect(await sseSubscription(g.server, key)).toEqual({ outcome: "open" });
    expect(await responsesSocket(g.server, key).outcome).toEqual({ outcome: "open" });

    const message = "Too many connections for this API key (at most 3)";
    expect(await graphqlSocket(g.server, key)).toEqual({ outcome: "closed", code: 4429, reason: message });
    const sse = await sseSubscription(g.server, key);
    expect(sse).toMatchObject({ outcome: "refused", status: 429 });
    expect(JSON.parse((sse as { body: string }).body)).toEqual({
      errors: [{ message, extensions: { code: "TOO_MANY_CONNECTIONS", limit: "key" } }],
    });
    const responses = await responsesSocket(g.server, key).outcome;
    expect(responses).toMatchObject({ outcome: "refused", status: 429 });
    expect(JSON.parse((responses as { body: string }).body)).toMatchObject({
      error: { message, code: "too_many_connections" },
    });

    expect((await refused()) - refusedBefore).toBe(3);
    // One line for the key's refusals (later ones within a few seconds are counted into the next).
    const lines = warned.mock.calls.map((call) => String(call[0])).filter((line) => line.includes(message));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/refused a graphql-ws connection of tenant mixed, API key \S+: Too many/);
  });

  it("SSE subscriptions are counted per tenant across its keys, and a closed one frees its place", async () => {
    const g = await startGeneratingServer({}, "sse-flood", {
      limits: { connectionsPerKey: 100, connectionsPerTenant: 2 },
    });
    const [first, second] = [await tenantKey("sse-flood"), await tenantKey("sse-flood")];
    const other = await tenantKey("sse-neighbour");
    expect(await sseSubscription(g.server, first.key)).toEqual({ outcome: "open" });
    expect(await sseSubscription(g.server, second.key)).toEqual({ outcome: "open" });
    expect(await sseSubscription(g.server, first.key)).toMatchObject({ outcome: "refused", status: 429 });
    // Another tenant is untouched.
    expect(await sseSubscription(g.server, other.key)).toEqual({ outcome: "open" });
    // One stream ends: its place is free again once the server has seen it close.
    streams[0]!.abort();
    await until(() => g.server.connections.open === 2, "the stream released", 5_000);
    expect(await sseSubscription(g.server, first.key)).toEqual({ outcome: "open" });
  });

  it("the instance has one budget for every tenant's long-lived connections", async () => {
    const g = await startGeneratingServer({}, "instance-a", { limits: { connectionsPerInstance: 3 } });
    const keys = await Promise.all(["instance-a", "instance-b", "instance-c", "instance-d"].map(tenantKey));
    expect(await graphqlSocket(g.server, keys[0]!.key)).toEqual({ outcome: "open" });
    expect(await sseSubscription(g.server, keys[1]!.key)).toEqual({ outcome: "open" });
    expect(await responsesSocket(g.server, keys[2]!.key).outcome).toEqual({ outcome: "open" });
    expect(await sseSubscription(g.server, keys[3]!.key)).toMatchObject({ outcome: "refused", status: 429 });
    expect(await graphqlSocket(g.server, keys[3]!.key)).toEqual({
      outcome: "closed",
      code: 4429,
      reason: "Too many connections to this instance (at most 3)",
    });
    // Ordinary requests still get through.
    expect((await fetch(`${g.server.url}/health`)).status).toBe(200);
  });
});
