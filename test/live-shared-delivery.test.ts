// Subscribers of one dialog share each delta's result, serialised once; each still gets messages
// framed for its own subscription: the protocol spoken by hand here, so the exact frames are seen.
// Two subscriptions on one socket (ids that need JSON escaping among them) and one on another
// socket receive the same payload under their own ids, as text frames; one that resumes with
// afterSeq gets its replay first; a refused subscription fails alone; a completed one goes quiet
// while its neighbour carries on.
import type { ResultOf } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { once } from "node:events";
import { type IncomingMessage, request as httpRequest } from "node:http";
import { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { RunningServer } from "../src/server/http-server.js";
import { writer } from "./support/dialogs.js";
import { until } from "./support/until.js";
import { httpExecutor, startTestServer } from "./support/live.js";
import { graphql } from "../src/client/generated/index.js";
import { metrics } from "../src/metrics.js";
import { STREAM_TEXT } from "./support/text-stream.js";

const DELTA = graphql(`
  subscription LiveSharedDeliveryHistoryDeltaSeq($dialogId: ID!, $afterSeq: Int) {
    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
      seq
      previousSeq
      append {
        __typename
        ... on BaseHistoryEvent {
          seq
        }
        ... on AiEvent {
          content
        }
      }
    }
  }
`);

interface Frame {
  id?: string;
  type: string;
  /** A `next` frame's payload carries a result of DELTA; an `error` frame's, the errors. */
  payload?: { data?: ResultOf<typeof DELTA>; errors?: unknown[] };
  /** Whether it came as a binary frame (graphql-ws messages must be text). */
  binary: boolean;
}

/** A graphql-transport-ws connection spoken directly, keeping every frame it receives. */
async function connect(server: RunningServer) {
  const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
  const frames: Frame[] = [];
  let port = 0;
  socket.once("upgrade", (response) => (port = response.socket.localPort!));
  socket.on("message", (data, binary) => frames.push({ ...JSON.parse(String(data)), binary }));
  await new Promise((resolve) => socket.once("open", resolve));
  socket.send(JSON.stringify({ type: "connection_init" }));
  await until(() => frames.some((f) => f.type === "connection_ack"));
  return {
    frames,
    /** This end's port: the server's socket of this connection has it as its peer's. */
    port,
    subscribe: (id: string, variables: Record<string, unknown>, query = print(DELTA)) =>
      socket.send(JSON.stringify({ id, type: "subscribe", payload: { query, variables } })),
    complete: (id: string) => socket.send(JSON.stringify({ id, type: "complete" })),
    of: (id: string) => frames.filter((f) => f.id === id),
    /** Stops reading from the socket (its bytes pile up in the kernel, then on the server). */
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => socket.close(),
  };
}

/**
 * `count` subscriptions of the dialog listen and none is still starting: a subscription that starts
 * live reads where the dialog is after its listener is in place, so one still starting may begin
 * after a write made now and never be sent it (src/live/history-delta-stream.ts).
 */
const listening = (dialogId: string, count: number) =>
  server.live.listenerCount("historyDelta", dialogId) === count && server.subscriptionStarts.starting === 0;

const seqsOf = (frames: Frame[]) =>
  frames.filter((f) => f.type === "next").map((f) => f.payload!.data!.historyDelta.seq);

let server: RunningServer;
let write: ReturnType<typeof writer>;
const sockets: Awaited<ReturnType<typeof connect>>[] = [];

beforeAll(async () => {
  server = await startTestServer();
  write = writer(httpExecutor(server));
});
afterAll(() => sockets.forEach((socket) => socket.close()));

// Large events first, more than the kernel holds for a socket that is not read, so a lagging
// subscriber's socket backs up on the server; then small ones.
const backingUp = [
  ...Array.from({ length: 6 }, (_, i) => `${i}`.repeat(900_000)),
  ...Array.from({ length: 10 }, (_, i) => `small ${i}`),
];

describe("one delta, many subscribers", () => {
  it("frames the shared payload for each subscription id, on one socket and across sockets", async () => {
    const started = await write.createResponse({ input: [{ human: { content: "Hello" } }] });
    const dialogId = started.dialog.id;
    const first = await connect(server);
    const second = await connect(server);
    sockets.push(first, second);
    const quotedId = 'b"\\\u2028';
    first.subscribe("a", { dialogId, afterSeq: 0 });
    first.subscribe(quotedId, { dialogId });
    second.subscribe("a", { dialogId });
    // "a" on the first socket replays seq 1; the others start live, once all three listen.
    await until(() => first.of("a").length === 1 && listening(dialogId, 3));

    await write.createResponse({
      dialogId,
      input: [{ human: { content: "How are you?" } }],
      output: [{ ai: { content: "Fine, thanks." } }],
    });
    await until(() => first.of("a").length === 2 && first.of(quotedId).length === 1 && second.of("a").length === 1);

    const live = [first.of("a")[1]!, first.of(quotedId)[0]!, second.of("a")[0]!];
    for (const frame of live) {
      expect(frame.type).toBe("next");
      expect(frame.binary).toBe(false);
    }
    expect(live.map((f) => f.id)).toEqual(["a", quotedId, "a"]);
    expect(live[0]!.payload).toEqual({
      data: {
        historyDelta: {
          seq: 3,
          previousSeq: 1,
          append: [
            { __typename: "HumanEvent", seq: 2 },
            { __typename: "AiEvent", seq: 3, content: "Fine, thanks." },
          ],
        },
      },
    });
    expect(live[1]!.payload).toEqual(live[0]!.payload);
    expect(live[2]!.payload).toEqual(live[0]!.payload);
    expect(seqsOf(first.of("a"))).toEqual([1, 3]);
  });

  it("replays before live for a subscriber that resumes, next to one that does not", async () => {
    const started = await write.createResponse({ input: [{ human: { content: "one" } }] });
    const dialogId = started.dialog.id;
    await write.createResponse({ dialogId, input: [{ human: { content: "two" } }] });
    const socket = await connect(server);
    sockets.push(socket);
    socket.subscribe("live", { dialogId });
    socket.subscribe("resumed", { dialogId, afterSeq: 1 });
    await until(() => socket.of("resumed").length === 1 && listening(dialogId, 2));
    await write.createResponse({ dialogId, input: [{ human: { content: "three" } }] });
    await until(() => socket.of("resumed").length === 2 && socket.of("live").length === 1);
    expect(seqsOf(socket.of("resumed"))).toEqual([2, 3]);
    expect(seqsOf(socket.of("live"))).toEqual([3]);
  });

  it("keeps errors and completion per subscription", async () => {
    const started = await write.createResponse({ input: [{ human: { content: "hi" } }] });
    const dialogId = started.dialog.id;
    const socket = await connect(server);
    sockets.push(socket);
    socket.subscribe("stays", { dialogId });
    socket.subscribe("leaves", { dialogId });
    socket.subscribe("refused", { dialogId, afterSeq: 99 });
    // Refused when it starts: graphql-ws sends the errors as its one result, then completes it.
    await until(() => socket.of("refused").length === 2);
    expect(socket.of("refused")).toMatchObject([
      { type: "next", payload: { errors: [{ path: ["historyDelta"], extensions: { code: "VALIDATION_ERROR" } }] } },
      { type: "complete" },
    ]);
    await until(() => listening(dialogId, 2));

    await write.createResponse({ dialogId, input: [{ human: { content: "first" } }] });
    await until(() => socket.of("stays").length === 1 && socket.of("leaves").length === 1);
    socket.complete("leaves");
    // Its listener is released when the server has taken the complete.
    await until(() => listening(dialogId, 1));
    await write.createResponse({ dialogId, input: [{ human: { content: "second" } }] });
    await until(() => socket.of("stays").length === 2);
    // A third write, seen by "stays": anything sent to "leaves" would have arrived before it.
    await write.createResponse({ dialogId, input: [{ human: { content: "third" } }] });
    await until(() => socket.of("stays").length === 3);

    expect(seqsOf(socket.of("stays"))).toEqual([2, 3, 4]);
    // The client completed it: nothing more, not even a complete message back.
    expect(socket.of("leaves").map((f) => f.type)).toEqual(["next"]);
    expect(socket.of("refused")).toHaveLength(2);
  });
});

// Subscribers that keep up get each live delta from one loop per delta (src/live/direct-delivery.ts);
// one whose socket is backed up holds one message until it reads again, the rest waiting behind it.
// Both see every delta, in order.
describe("caught-up and lagging subscribers of one dialog", () => {
  const writtenDirectly = async () => (await metrics.deltasWrittenDirectly.get()).values[0]?.value ?? 0;

  it("both receive every delta once, in order, the lagging one after it reads again", async () => {
    const started = await write.createResponse({ input: [{ human: { content: "Hello" } }] });
    const dialogId = started.dialog.id;
    const caughtUp = await connect(server);
    const lagging = await connect(server);
    sockets.push(caughtUp, lagging);
    caughtUp.subscribe("s", { dialogId });
    lagging.subscribe("s", { dialogId });
    await until(() => listening(dialogId, 2));
    const before = await writtenDirectly();
    lagging.pause();

    const contents = backingUp;
    for (const content of contents) {
      await write.createResponse({ dialogId, input: [{ human: { content: "go on" } }], output: [{ ai: { content } }] });
    }
    // Each write appends two events after the first one's.
    const seqs = contents.map((_, i) => 3 + 2 * i);
    await until(() => caughtUp.of("s").length === contents.length, "the caught-up subscriber's deltas");
    expect(seqsOf(caughtUp.of("s"))).toEqual(seqs);
    expect(lagging.of("s").length).toBeLessThan(contents.length);

    lagging.resume();
    await until(() => lagging.of("s").length === contents.length, "the lagging subscriber's deltas");
    expect(seqsOf(lagging.of("s"))).toEqual(seqs);
    // What each received is the delta's whole content.
    const contentsOf = (frames: Frame[]) =>
      frames.map((f) => (f.payload!.data!.historyDelta.append[1] as { content: string }).content);
    expect(contentsOf(caughtUp.of("s"))).toEqual(contents);
    expect(contentsOf(lagging.of("s"))).toEqual(contents);

    // By the loop: every one of the caught-up subscriber's, and the lagging one's too once its
    // socket took the message it held (what waited behind that follows by the same loop).
    const direct = (await writtenDirectly()) - before;
    expect(direct).toBeGreaterThanOrEqual(contents.length);
    expect(direct).toBeLessThanOrEqual(2 * contents.length);
  });
});

// In-flight text takes the same loop: a caught-up subscriber's view of a text delta is shared by
// every subscriber at its seq (src/live/text-positions.ts), executed once, written by one loop.
describe("text deltas to caught-up subscribers", () => {
  const writtenDirectly = async () => (await metrics.deltasWrittenDirectly.get()).values[0]?.value ?? 0;
  const TEXT = `subscription($dialogId: ID!) {
    historyDelta(dialogId: $dialogId) { seq text { part offset delta } response { id status } }
  }`;
  type TextFrame = { seq: number; text: { part: number; offset: number; delta: string } | null; response: unknown };
  const textOf = (frames: Frame[]) =>
    frames
      .filter((f) => f.type === "next")
      .map((f) => (f.payload!.data as unknown as { historyDelta: TextFrame }).historyDelta);

  it("are written by one loop for all, each once and in order, with their response", async () => {
    const started = await write.createResponse({ input: [{ human: { content: "Tell me" } }] });
    const dialogId = started.dialog.id;
    const run = httpExecutor(server);
    const first = await connect(server);
    const second = await connect(server);
    sockets.push(first, second);
    first.subscribe("a", { dialogId }, TEXT);
    first.subscribe("b", { dialogId }, TEXT);
    second.subscribe("a", { dialogId }, TEXT);
    await until(() => listening(dialogId, 3));
    // Each is live once it has the first delta (a stream starting live sends nothing before it).
    const stream = async (delta: string) => {
      const { streamText } = await run(STREAM_TEXT, { input: { responseId: started.id, type: "AI", delta } });
      expect(streamText.__typename).toBe("TextPosition");
    };
    await stream("Once ");
    await until(() => [first.of("a"), first.of("b"), second.of("a")].every((frames) => frames.length === 1));
    const before = await writtenDirectly();

    const words = Array.from({ length: 10 }, (_, i) => `word${i} `);
    for (const word of words) await stream(word);
    const all = () => [first.of("a"), first.of("b"), second.of("a")];
    await until(() => all().every((frames) => frames.length === 1 + words.length), "every text delta");

    for (const frames of all()) {
      const deltas = textOf(frames);
      expect(deltas.map((d) => d.text?.delta).join("")).toBe(`Once ${words.join("")}`);
      expect(deltas.map((d) => d.text?.offset)).toEqual(
        ["Once ", ...words].map((_, i, parts) => parts.slice(0, i).join("").length),
      );
      for (const d of deltas) expect(d).toMatchObject({ seq: 1, response: { id: started.id, status: "IN_PROGRESS" } });
    }
    // Every one of them by the loop: none took its subscription's own chain.
    expect((await writtenDirectly()) - before).toBe(3 * words.length);
  });

  // An instance that is busy receives a dialog's text deltas through Redis several to a read, and
  // delivers them in one run (src/live/redis-fanout.ts). Written one system call per delta and
  // socket, a thousand viewers on such an instance cost it twice the CPU per delta of viewers on
  // the writer's, and it fell further behind the busier it was (issue 32): the burst leaves each
  // socket in one write.
  it("of a burst, leave each socket in one write", async () => {
    const started = await write.createResponse({ input: [{ human: { content: "Tell me" } }] });
    const dialogId = started.dialog.id;
    const run = httpExecutor(server);
    const first = await connect(server);
    const second = await connect(server);
    sockets.push(first, second);
    const BURST = `subscription($dialogId: ID!) { historyDelta(dialogId: $dialogId) { seq text { part offset delta } } }`;
    first.subscribe("a", { dialogId }, BURST);
    first.subscribe("b", { dialogId }, BURST);
    second.subscribe("a", { dialogId }, BURST);
    await until(() => listening(dialogId, 3));
    const stream = async (delta: string) => {
      const { streamText } = await run(STREAM_TEXT, { input: { responseId: started.id, type: "AI", delta } });
      expect(streamText.__typename).toBe("TextPosition");
    };
    await stream("Once ");
    const all = () => [first.of("a"), first.of("b"), second.of("a")];
    await until(() => all().every((frames) => frames.length === 1));

    // The deltas are taken by the store as usual; their publications are held, then made in one
    // run, as the Redis fan-out delivers the payloads of one read.
    const { live } = server;
    const publishText = live.publishText;
    const held: Parameters<typeof publishText>[0][] = [];
    live.publishText = (text) => void held.push(text);
    const words = Array.from({ length: 5 }, (_, i) => `word${i} `);
    try {
      for (const word of words) await stream(word);
    } finally {
      live.publishText = publishText;
    }
    expect(held).toHaveLength(words.length);

    const writes = countSocketWrites([first.port, second.port]);
    const before = await writtenDirectly();
    try {
      for (const text of held) live.publishText(text);
      await until(() => all().every((frames) => frames.length === 1 + words.length), "every text delta");
    } finally {
      writes.stop();
    }
    for (const frames of all()) expect(textOf(frames).map((d) => d.text?.delta)).toEqual(["Once ", ...words]);
    expect((await writtenDirectly()) - before).toBe(3 * words.length);
    // One write per socket: two subscriptions' five messages each on the first, five on the second.
    expect(writes.counts).toEqual([1, 1]);
  });
});

/**
 * Counts the writes (each one system call) the server makes to the WebSockets whose clients have
 * the local ports `ports`, from now until stop().
 */
function countSocketWrites(ports: number[]) {
  const prototype = Socket.prototype as unknown as Record<"_write" | "_writev", (...args: unknown[]) => void>;
  const original = { _write: prototype._write, _writev: prototype._writev };
  const counts = new Map(ports.map((port) => [port, 0]));
  for (const name of ["_write", "_writev"] as const) {
    prototype[name] = function (this: Socket, ...args: unknown[]) {
      const port = this.remotePort;
      if (port !== undefined && counts.has(port)) counts.set(port, counts.get(port)! + 1);
      return original[name].apply(this, args);
    };
  }
  return {
    stop: () => Object.assign(prototype, original),
    /** How many writes each connection got, in the order of `ports`. */
    get counts() {
      return ports.map((port) => counts.get(port));
    },
  };
}

/** An SSE subscription spoken over plain HTTP, keeping every event it receives and what came first. */
async function sseSubscribe(server: RunningServer, variables: Record<string, unknown>) {
  const body = JSON.stringify({ query: print(DELTA), variables });
  const request = httpRequest(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
  });
  request.end(body);
  const [response] = (await once(request, "response")) as [IncomingMessage];
  let text = "";
  const events: { event: string; data: string }[] = [];
  response.setEncoding("utf8");
  response.on("data", (chunk: string) => {
    text += chunk;
    for (let end = text.indexOf("\n\n"); end >= 0; end = text.indexOf("\n\n")) {
      const message = text.slice(0, end);
      text = text.slice(end + 2);
      const fields = Object.fromEntries(
        message.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
      ) as { event?: string; data?: string };
      events.push({ event: fields.event ?? "(comment)", data: fields.data ?? "" });
    }
  });
  return {
    status: response.statusCode,
    contentType: response.headers["content-type"],
    events,
    seqs: () =>
      events
        .filter((e) => e.event === "next")
        .map((e) => (JSON.parse(e.data) as { data: ResultOf<typeof DELTA> }).data.historyDelta.seq),
    contents: () =>
      events
        .filter((e) => e.event === "next")
        .map((e) => {
          const { append } = (JSON.parse(e.data) as { data: ResultOf<typeof DELTA> }).data.historyDelta;
          return (append[1] as { content: string }).content;
        }),
    pause: () => response.pause(),
    resume: () => response.resume(),
    close: () => request.destroy(),
  };
}

// SSE subscribers take the same lane (src/server/sse-next-messages.ts): one whose response keeps up is
// written to by the loop, one whose response is backed up by its own chain, and no message overtakes
// another on either.
describe("caught-up and lagging SSE subscribers of one dialog", () => {
  const writtenDirectly = async () => (await metrics.deltasWrittenDirectly.get()).values[0]?.value ?? 0;

  it("both receive every delta once, in order, as Yoga's SSE events, the lagging one after it reads again", async () => {
    const started = await write.createResponse({ input: [{ human: { content: "Hello" } }] });
    const dialogId = started.dialog.id;
    const caughtUp = await sseSubscribe(server, { dialogId });
    const lagging = await sseSubscribe(server, { dialogId });
    try {
      expect([caughtUp.status, caughtUp.contentType]).toEqual([200, "text/event-stream"]);
      await until(() => listening(dialogId, 2));
      const before = await writtenDirectly();
      lagging.pause();

      const contents = backingUp;
      for (const content of contents) {
        await write.createResponse({
          dialogId,
          input: [{ human: { content: "go on" } }],
          output: [{ ai: { content } }],
        });
      }
      const seqs = contents.map((_, i) => 3 + 2 * i);
      await until(() => caughtUp.seqs().length === contents.length, "the caught-up subscriber's deltas");
      expect(caughtUp.seqs()).toEqual(seqs);
      expect(lagging.seqs().length).toBeLessThan(contents.length);

      lagging.resume();
      await until(() => lagging.seqs().length === contents.length, "the lagging subscriber's deltas");
      expect(lagging.seqs()).toEqual(seqs);
      expect(caughtUp.contents()).toEqual(contents);
      expect(lagging.contents()).toEqual(contents);
      // A comment first (a browser may wait for a first byte), then `next` events (and keep-alive comments).
      expect(caughtUp.events[0]).toEqual({ event: "(comment)", data: "" });
      expect(new Set(caughtUp.events.map((e) => e.event))).toEqual(new Set(["(comment)", "next"]));
      const direct = (await writtenDirectly()) - before;
      expect(direct).toBeGreaterThanOrEqual(contents.length);
      expect(direct).toBeLessThanOrEqual(2 * contents.length);
    } finally {
      caughtUp.close();
      lagging.close();
    }
  });
});
