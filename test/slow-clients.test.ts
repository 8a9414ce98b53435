// Slow and broken clients: a graphql-ws connection that never sends connection_init is closed
// after WS_CONNECTION_INIT_TIMEOUT_MS; a subscriber that stops reading is disconnected once its
// unsent data has not drained for SLOW_SUBSCRIBER_TIMEOUT_MS, and resuming with afterSeq it gets
// everything it missed.
import { describe, expect, it } from "vitest";
import { store, testConfig } from "./support/database.js";
import WebSocket from "ws";
import { metrics } from "../src/metrics.js";
import { until } from "./support/until.js";
import { startServer } from "../src/server/http-server.js";
import { writer } from "./support/dialogs.js";
import { httpExecutor } from "./support/live.js";

const wsUrl = (url: string) => `${url.replace(/^http/, "ws")}/graphql`;

describe("slow and broken clients", () => {
  it("closes a connection that sends no connection_init in time (4408)", async () => {
    const server = await startServer({
      store,
      config: testConfig,
      port: 0,
      limits: { wsConnectionInitTimeoutMs: 300 },
    });
    try {
      const socket = new WebSocket(wsUrl(server.url), "graphql-transport-ws");
      const started = Date.now();
      const code = await new Promise<number>((resolve) => socket.once("close", resolve));
      expect(code).toBe(4408);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await server.close();
    }
  });

  it("disconnects a subscriber that stops reading; it resumes with afterSeq and misses nothing", async () => {
    const server = await startServer({ store, config: testConfig, port: 0, limits: { slowSubscriberTimeoutMs: 500 } });
    try {
      const write = writer(httpExecutor(server));
      const started = await write.createResponse({ input: [{ human: { content: "go" } }] });
      const dialogId = started.dialog.id;

      // A raw graphql-ws client, so that its socket can stop reading.
      const socket = new WebSocket(wsUrl(server.url), "graphql-transport-ws");
      const seqs: number[] = [];
      socket.on("message", (raw) => {
        const message = JSON.parse(String(raw));
        if (message.type === "next")
          seqs.push(...message.payload.data.historyDelta.append.map((e: { seq: number }) => e.seq));
      });
      await new Promise((resolve) => socket.once("open", resolve));
      socket.send(JSON.stringify({ type: "connection_init" }));
      await new Promise((resolve) => socket.once("message", resolve)); // connection_ack
      socket.send(
        JSON.stringify({
          id: "1",
          type: "subscribe",
          payload: {
            query: `subscription($d: ID!) { historyDelta(dialogId: $d, afterSeq: 0) { append { ... on BaseHistoryEvent { seq } ... on AiEvent { content } } } }`,
            variables: { d: dialogId },
          },
        }),
      );
      while (!seqs.length) await new Promise((resolve) => setTimeout(resolve, 10));
      const closed = new Promise<number>((resolve) => socket.once("close", resolve));
      const droppedBefore = (await metrics.slowClientsDisconnected.get()).values[0]?.value ?? 0;
      (socket as unknown as { _socket: import("node:net").Socket })._socket.pause(); // stops reading

      // Far more than the socket buffers hold: 40 events of 256 KiB.
      const WRITES = 40;
      for (let i = 0; i < WRITES; i++) {
        const result = await write.appendEvents({
          responseId: started.id,
          events: [{ ai: { content: `${i}`.padEnd(256 * 1024, ".") } }],
        });
        expect(result.__typename).toBe("Response");
      }
      // Read again only once the server has dropped it (its socket, paused, cannot see that yet).
      await until(
        async () => (await metrics.slowClientsDisconnected.get()).values[0]!.value > droppedBefore,
        "the server to drop the client",
      );
      (socket as unknown as { _socket: import("node:net").Socket })._socket.resume();
      expect(await closed).toBe(1006); // dropped by the server, not closed politely
      expect(seqs.length).toBeLessThan(WRITES + 1);

      // The client resumes where it got to and receives the rest, each seq once.
      const resumed = await new Promise<number[]>((resolve, reject) => {
        const again = new WebSocket(wsUrl(server.url), "graphql-transport-ws");
        const more: number[] = [];
        again.on("message", (raw) => {
          const message = JSON.parse(String(raw));
          if (message.type === "connection_ack") {
            again.send(
              JSON.stringify({
                id: "1",
                type: "subscribe",
                payload: {
                  query: `subscription($d: ID!, $a: Int) { historyDelta(dialogId: $d, afterSeq: $a) { append { ... on BaseHistoryEvent { seq } } } }`,
                  variables: { d: dialogId, a: Math.max(...seqs) },
                },
              }),
            );
          }
          if (message.type === "next")
            more.push(...message.payload.data.historyDelta.append.map((e: { seq: number }) => e.seq));
          if (Math.max(0, ...more) === WRITES + 1) {
            again.close();
            resolve(more);
          }
          if (message.type === "error") reject(new Error(JSON.stringify(message)));
        });
        again.once("open", () => again.send(JSON.stringify({ type: "connection_init" })));
      });
      expect([...seqs, ...resumed]).toEqual(Array.from({ length: WRITES + 1 }, (_, i) => i + 1));
    } finally {
      await server.close();
    }
  });
});
