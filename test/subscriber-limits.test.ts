// Subscribers that do not read, and too many of them (issue 13, finding 5): a message to many
// subscribers is serialized once and every socket queues the same bytes; a connection whose unsent
// bytes pass MAX_QUEUED_BYTES_PER_CONNECTION is dropped; WebSocket connections per API key and per
// tenant are capped, beyond which the socket closes with 4429.
import { describe, expect, it } from "vitest";
import { store, testConfig } from "./support/database.js";
import WebSocket from "ws";
import { sendAsNextMessages } from "../src/server/graphql-ws-next-messages.js";
import { startServer } from "../src/server/http-server.js";
import { createSlowConsumerWatchdog } from "../src/connections/slow-consumers.js";
import { tenantKey } from "./support/tenants.js";

describe("one copy of a message for all its subscribers", () => {
  it("every subscriber's socket is handed the same payload buffer, not a copy", async () => {
    const result = { data: { historyDelta: { append: [{ content: "x".repeat(900_000) }] } } };
    const sent = new Map<string, Buffer[]>();
    const socketOf = (name: string) => {
      sent.set(name, []);
      return {
        readyState: 1,
        OPEN: 1,
        send: (data: Buffer, _options: unknown, done?: (error?: Error) => void) => {
          sent.get(name)!.push(data);
          done?.();
        },
      } as never;
    };
    const subscribers = ["a", "b", "c"].map((name, i) =>
      sendAsNextMessages(
        socketOf(name),
        String(i + 1),
        (async function* () {
          yield result;
        })(),
      ),
    );
    await Promise.all(subscribers.map((subscriber) => subscriber.next()));
    const largest = (name: string) =>
      sent.get(name)!.reduce((big, buffer) => (buffer.length > big.length ? buffer : big));
    expect(largest("a").length).toBeGreaterThan(900_000);
    expect(largest("b")).toBe(largest("a"));
    expect(largest("c")).toBe(largest("a"));
    // What each subscriber receives is still its own, whole message.
    expect(JSON.parse(Buffer.concat(sent.get("b")!).toString())).toEqual({ id: "2", type: "next", payload: result });
  });

  it("a small message is framed once for the subscribers whose ids agree, each socket queuing that one frame", async () => {
    const result = { data: { historyDelta: { text: { offset: 5, delta: "word1 " } } } };
    const written = new Map<string, Buffer[]>();
    const subscriber = (name: string, id: string) => {
      written.set(name, []);
      const socket = { readyState: 1, OPEN: 1, extensions: "", bufferedAmount: 0 } as never;
      const wire = {
        cork: () => undefined,
        uncork: () => undefined,
        writableLength: 0,
        write: (frame: Buffer, done: (error?: Error | null) => void) => {
          written.get(name)!.push(frame);
          done(null);
          return true;
        },
      } as never;
      return sendAsNextMessages(
        socket,
        id,
        (async function* () {
          yield result;
        })(),
        wire,
      );
    };
    const subscribers = [subscriber("a", "1"), subscriber("b", "1"), subscriber("c", "2"), subscriber("d", "2")];
    await Promise.all(subscribers.map((s) => s.next()));
    const [a, b, c, d] = ["a", "b", "c", "d"].map((name) => written.get(name)!);
    expect([a!.length, b!.length, c!.length, d!.length]).toEqual([1, 1, 1, 1]);
    expect(b![0]).toBe(a![0]);
    expect(c![0]).not.toBe(a![0]);
    // A second id shares its frame too (after a resubscribe, a viewer's subscription is "2").
    expect(d![0]).toBe(c![0]);
    // Each is one unmasked text frame (a 7-bit length) of that subscriber's own message.
    for (const [frames, id] of [
      [a!, "1"],
      [c!, "2"],
    ] as const) {
      expect([frames[0]![0], frames[0]![1]]).toEqual([0x81, frames[0]!.length - 2]);
      expect(JSON.parse(frames[0]!.subarray(2).toString())).toEqual({ id, type: "next", payload: result });
    }
  });
});

describe("queued bytes per connection", () => {
  it("a connection with more than MAX_QUEUED_BYTES_PER_CONNECTION unsent is dropped before the slow-reader timeout", async () => {
    const watchdog = createSlowConsumerWatchdog({ timeoutMs: 60_000, maxQueuedBytes: 1_000_000 });
    let writableLength = 500_000;
    const destroyed = new Promise<void>((resolve) => {
      const socket = {
        writableLength: 0,
        destroyed: false,
        remoteAddress: "127.0.0.1",
        remotePort: 1,
        on: () => socket,
        once: () => socket,
        destroy: resolve,
      };
      Object.defineProperty(socket, "writableLength", { get: () => writableLength });
      watchdog.watch(socket as never);
    });
    // Within the bound it stays (the slow-reader timeout is a minute away); past it, it goes.
    const outcome = await Promise.race([
      destroyed.then(() => "dropped"),
      new Promise((resolve) => setTimeout(() => resolve("kept"), 1_000)),
    ]);
    expect(outcome).toBe("kept");
    writableLength = 1_000_001;
    const bounded = await Promise.race([
      destroyed.then(() => "dropped"),
      new Promise((resolve) => setTimeout(() => resolve("kept"), 5_000)),
    ]);
    watchdog.close();
    expect(bounded).toBe("dropped");
  });
});

describe("connections per API key and per tenant", () => {
  it("beyond MAX_CONNECTIONS_PER_KEY or MAX_CONNECTIONS_PER_TENANT a WebSocket closes with 4429; a freed place is taken again", async () => {
    const server = await startServer({
      store,
      config: testConfig,
      port: 0,
      limits: { connectionsPerKey: 2, connectionsPerTenant: 3 },
    });
    const [first, second] = [await tenantKey("crowded"), await tenantKey("crowded")];
    const open: WebSocket[] = [];
    const connect = (key: string) =>
      new Promise<{ outcome: "acknowledged" } | { outcome: "closed"; code: number; reason: string }>((resolve) => {
        const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
        open.push(socket);
        socket.once("open", () =>
          socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${key}` } })),
        );
        socket.on(
          "message",
          (raw) => JSON.parse(String(raw)).type === "connection_ack" && resolve({ outcome: "acknowledged" }),
        );
        socket.once("close", (code, reason) => resolve({ outcome: "closed", code, reason: String(reason) }));
      });
    try {
      expect(await connect(first.key)).toEqual({ outcome: "acknowledged" });
      expect(await connect(first.key)).toEqual({ outcome: "acknowledged" });
      expect(await connect(first.key)).toEqual({
        outcome: "closed",
        code: 4429,
        reason: "Too many connections for this API key (at most 2)",
      });
      expect(await connect(second.key)).toEqual({ outcome: "acknowledged" });
      expect(await connect(second.key)).toEqual({
        outcome: "closed",
        code: 4429,
        reason: "Too many connections for this tenant (at most 3)",
      });
      // One of the first key's sockets closes: its place is free again.
      const closed = new Promise((resolve) => open[0]!.once("close", resolve));
      open[0]!.close();
      await closed;
      let again = await connect(first.key);
      // The server hears of the close a moment after the client: retry until it has.
      for (let i = 0; again.outcome === "closed" && i < 50; i++) again = await connect(first.key);
      expect(again).toEqual({ outcome: "acknowledged" });
    } finally {
      for (const socket of open) socket.terminate();
      await server.close();
    }
  });
});
