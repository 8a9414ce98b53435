// The parts every subscriber's stream is built from, on their own: a listener's queue keeps the
// newest payloads when its reader falls behind and lets go at once when stopped; a stream stops
// while it waits for a payload; a `next` message is what graphql-ws itself would have sent, and a
// stream that fails still fails for graphql-ws to report.
import { GraphQLError } from "graphql";
import { MessageType, stringifyMessage } from "graphql-ws";
import { once } from "node:events";
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { PayloadQueue } from "../src/live/payload-queue.js";
import { onAbort, stoppableStream } from "../src/live/stoppable-stream.js";
import { nextMessage, sendAsNextMessages } from "../src/server/graphql-ws-next-messages.js";
import { MAX_HELD_BYTES } from "../src/connections/coalesced-writes.js";
import { DirectLane } from "../src/live/direct-delivery.js";
import { until } from "./support/until.js";

async function* toAsync<T>(items: T[]) {
  yield* items;
}

/** A subscription's results that never come (the direct lane writes them instead). */
const never = (): AsyncIterable<never> => ({
  [Symbol.asyncIterator]: () => ({
    next: () => new Promise(() => undefined),
    return: async () => ({ done: true, value: undefined }),
  }),
});

describe("a listener's queue", () => {
  it("keeps the newest payloads when its reader falls behind", async () => {
    const queue = new PayloadQueue<number>(3, () => undefined);
    for (let n = 1; n <= 5; n++) queue.push(n);
    const read = [(await queue.next()).value, (await queue.next()).value, (await queue.next()).value];
    expect(read).toEqual([3, 4, 5]);
  });

  it("ends a waiting reader when stopped, releases its listener once, and takes nothing more", async () => {
    let ended = 0;
    const queue = new PayloadQueue<number>(10, () => ended++);
    const waiting = queue.next();
    await queue.return();
    await queue.return();
    queue.push(1);
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(await queue.next()).toEqual({ done: true, value: undefined });
    expect(ended).toBe(1);
  });
});

describe("a stoppable stream", () => {
  it("stops while waiting for the next payload, and runs its cleanup", async () => {
    const queue = new PayloadQueue<string>(10, () => undefined);
    let cleanedUp = false;
    const stream = stoppableStream<string>(async function* (signal) {
      onAbort(signal, () => queue.return());
      try {
        for await (const payload of queue) yield payload;
      } finally {
        cleanedUp = true;
      }
    });
    queue.push("first");
    expect(await stream.next()).toEqual({ done: false, value: "first" });
    const waiting = stream.next();
    expect(await stream.return!()).toEqual({ done: true, value: undefined });
    expect(await waiting).toEqual({ done: true, value: undefined });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cleanedUp).toBe(true);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });
});

describe("graphql-ws next messages", () => {
  const result = {
    data: { historyDelta: { seq: 3, append: [{ content: 'é \u2028 "quoted"' }] } },
    errors: [new GraphQLError("Not found", { path: ["historyDelta"], extensions: { code: "NOT_FOUND" } })],
  };

  it("are what graphql-ws sends, for any id, from one serialisation of the result", () => {
    for (const id of ["1", "0b6a7c1e-5d3f-4c2a-9e8b-1f2d3c4b5a69", 'a"\\b']) {
      const ours = JSON.parse(nextMessage(id, result).toString("utf8"));
      const theirs = JSON.parse(
        stringifyMessage<MessageType.Next>({
          id,
          type: MessageType.Next,
          payload: { data: result.data, errors: result.errors.map((e) => e.toJSON()) },
        }),
      );
      expect(ours).toEqual(theirs);
    }
  });

  // Up to 16 KB a message is framed here and written to the TCP socket as one buffer (a 7-bit and a
  // 16-bit length); above, ws frames it as three fragments. A ws client reads each as one text message.
  it("reach a ws client whole, as text, at every frame length", async () => {
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await once(server, "listening");
    const connected = once(server, "connection") as Promise<[WebSocket, IncomingMessage]>;
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const received: { text: string; binary: boolean }[] = [];
    client.on("message", (data, binary) => received.push({ text: String(data), binary }));
    const [socket, request] = await connected;
    const results = ["", "x".repeat(500), "y".repeat(40_000)].map((content) => ({ data: { content } }));
    const sending = sendAsNextMessages(socket, "1", toAsync(results), request.socket);
    expect(await sending.next()).toEqual({ done: true, value: undefined });
    await until(() => received.length === results.length, "every message");
    expect(received).toEqual(results.map((r) => ({ text: nextMessage("1", r).toString("utf8"), binary: false })));
    client.close();
    server.close();
  });

  // The direct lane's messages of one turn are held for one write at its end
  // (src/connections/coalesced-writes.ts); a burst past MAX_HELD_BYTES is declined instead, so a
  // reader that stopped reading is not handed a whole backlog in one turn.
  it("written directly, hold at most MAX_HELD_BYTES (and one message) in one turn; the rest are declined", async () => {
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await once(server, "listening");
    const connected = once(server, "connection") as Promise<[WebSocket, IncomingMessage]>;
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const received: string[] = [];
    client.on("message", (data) => received.push(String(data)));
    const [socket, request] = await connected;
    const lane = new DirectLane();
    const waiting = sendAsNextMessages(socket, "1", never(), request.socket, lane);
    const results = Array.from({ length: 20 }, (_, i) => ({ data: { content: `${i}`.padEnd(10_000, "x") } }));
    const written = results.map((result) => lane.write!(result, () => undefined));
    const taken = written.filter((w) => w === "flushed").length;
    expect(written).toEqual([...Array(taken).fill("flushed"), ...Array(results.length - taken).fill("declined")]);
    expect(taken).toBe(Math.ceil(MAX_HELD_BYTES / nextMessage("1", results[0]!).length));
    await until(() => received.length === taken, "the messages taken");
    expect(received).toEqual(results.slice(0, taken).map((r) => nextMessage("1", r).toString("utf8")));
    // The next turn starts empty: the socket takes messages again.
    expect(lane.write!({ data: { content: "after" } }, () => undefined)).toBe("flushed");
    void waiting.return!();
    client.close();
    server.close();
  });

  it("leave a failing stream failing, so graphql-ws reports the error to that subscription", async () => {
    const failing = (async function* () {
      yield* [];
      throw new Error("the stream broke");
    })();
    const socket = { readyState: 1, OPEN: 1, send: () => undefined } as never;
    await expect(sendAsNextMessages(socket, "1", failing).next()).rejects.toThrow("the stream broke");
  });
});
