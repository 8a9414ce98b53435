// Token-level live history: an agent streams its answer with streamText (over graphql-ws and
// HTTP); subscribers see the text as it is typed, join or resume mid-answer without losing or
// repeating a character, and see the committed event replace the text. Interrupts keep or drop
// the streamed text; bad deltas change nothing; a vanished agent's response ends INCOMPLETE.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma, store, testConfig } from "./support/database.js";
import { type RunningServer, startServer } from "../src/server/http-server.js";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import type { StreamTextInput } from "../src/client/generated/graphql.js";
import { member, type Run, withField, writer } from "./support/dialogs.js";
import { httpExecutor, sseClient, wsClient } from "./support/live.js";
import { asCaller, tenantKey } from "./support/tenants.js";
import { STREAM_TEXT, TextSubscriber, iterateTextDeltas } from "./support/text-stream.js";
import { graphql } from "../src/client/generated/index.js";

const redisUrl = process.env.TEST_REDIS_URL;
let now = 1_000_000;
const servers: RunningServer[] = [];
let server: RunningServer;
let run: ReturnType<typeof httpExecutor>;
let write: ReturnType<typeof writer>;

/** A server whose in-flight text runs on the test's clock, checkpointing every 10 characters. */
async function start() {
  const started = await startServer({
    store,
    config: testConfig,
    port: 0,
    redisUrl,
    inFlight: { clock: () => now, checkpointMs: 60_000, checkpointChars: 10, idleTimeoutMs: 30_000, sweep: false },
  });
  servers.push(started);
  return started;
}

beforeAll(async () => {
  server = await start();
  run = httpExecutor(server);
  write = writer(run);
});
afterAll(async () => {
  for (const started of servers) await started.close();
});

async function startTurn() {
  const started = await write.createResponse({ input: [{ human: { content: "Tell me a story" } }] });
  expect(started.status).toBe("IN_PROGRESS");
  return { responseId: started.id, dialogId: started.dialog.id };
}

const streamText = async (input: StreamTextInput, through: Run = run) =>
  (await through(STREAM_TEXT, { input })).streamText;

const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i} `);

const COMMIT_TEXT = graphql(`
  mutation LiveInFlightTextCommitText($id: ID!) {
    commitText(responseId: $id) {
      __typename
      ... on Response {
        status
      }
    }
  }
`);

const CLEAR_DIALOG = graphql(`
  mutation LiveInFlightTextClearDialog($id: ID!) {
    clearDialog(input: { id: $id }) {
      __typename
    }
  }
`);

const CREATE_RESPONSE = graphql(`
  mutation LiveInFlightTextCreateResponse {
    createResponse(input: { input: [{ human: { content: "mine" } }] }) {
      ... on Response {
        id
      }
    }
  }
`);

describe("in-flight text", () => {
  it("reaches subscribers as it is typed (graphql-ws and SSE), then the committed event replaces it", async () => {
    const { responseId, dialogId } = await startTurn();
    const ws = new TextSubscriber(iterateTextDeltas(wsClient(server)), { dialogId, afterSeq: 1 });
    const sse = sseClient(server);
    const overSse = new TextSubscriber(iterateTextDeltas(sse), { dialogId, afterSeq: 1 });
    // Deltas over the WebSocket the agent already holds, and over HTTP.
    const agentWs = wsClient(server);
    const overWs: Run = <T, V>(document: TypedDocumentNode<T, V>, variables?: V) =>
      new Promise<T>((resolve, reject) => {
        let data: T;
        agentWs.subscribe<T>(
          { query: print(document), variables: variables as Record<string, unknown> },
          { next: (r) => (data = r.data!), error: reject, complete: () => resolve(data) },
        );
      });

    // The subscriptions are in place once a first delta reaches them.
    expect(await streamText({ responseId, type: "AI", delta: "Once ", offset: 0 })).toMatchObject({
      __typename: "TextPosition",
      part: 1,
      offset: 0,
      length: 5,
    });
    await ws.until((s) => s.textOf(responseId) === "Once ");
    await overSse.until((s) => s.textOf(responseId) === "Once ");

    let text = "Once ";
    for (const [i, word] of words(20).entries()) {
      const position = await streamText(
        { responseId, type: "AI", delta: word, offset: text.length },
        i % 2 ? run : overWs,
      );
      expect(position).toMatchObject({ offset: text.length, length: text.length + word.length });
      text += word;
    }
    await ws.until((s) => s.textOf(responseId) === text);
    await overSse.until((s) => s.textOf(responseId) === text);
    // Each text delta moves no seq and says where it belongs.
    const textDeltas = ws.deltas.filter((d) => d.text);
    expect(textDeltas).toHaveLength(21);
    expect(textDeltas.every((d) => d.seq === 1 && d.previousSeq === 1 && d.append.length === 0)).toBe(true);
    const offsets = textDeltas.map((d) => d.text!.offset);
    expect(offsets).toEqual(
      textDeltas.map((_, i) => textDeltas.slice(0, i).reduce((n, d) => n + d.text!.delta.length, 0)),
    );

    const committed = await run(COMMIT_TEXT, {
      id: responseId,
    });
    expect(committed.commitText.__typename).toBe("Response");
    for (const subscriber of [ws, overSse]) {
      await subscriber.until((s) => s.events.length === 1);
      expect(subscriber.events[0]).toMatchObject({ __typename: "AiEvent", seq: 2, content: text });
      expect(subscriber.inFlight).toEqual({});
      expect(subscriber.deltas.at(-1)).toMatchObject({ previousSeq: 1, seq: 2, endsTextPart: 1 });
      expect([subscriber.duplicates, subscriber.gaps]).toEqual([0, 0]);
    }
    // One event for the whole answer, no event per token.
    expect(await prisma.event.count({ where: { responseId } })).toBe(2);
    ws.close();
    overSse.close();
  });

  it("a subscriber joining mid-answer gets the text so far, then live deltas; one resuming with its offset gets only the rest", async () => {
    const { responseId, dialogId } = await startTurn();
    await streamText({ responseId, type: "REASONING", delta: "Thinking about it. " });
    await streamText({ responseId, type: "AI", delta: "Hello" }); // commits the reasoning first
    const fresh = new TextSubscriber(iterateTextDeltas(wsClient(server)), { dialogId, afterSeq: 0 });
    await fresh.until((s) => s.textOf(responseId) === "Hello");
    expect(fresh.events.map((e) => [e.__typename, e.content])).toEqual([
      ["HumanEvent", "Tell me a story"],
      ["ReasoningEvent", "Thinking about it. "],
    ]);
    // It had "Hel" of part 2 and seq 2 when its connection dropped.
    const resumed = new TextSubscriber(
      iterateTextDeltas(wsClient(server)),
      { dialogId, afterSeq: 2, textOffsets: [{ responseId, part: 2, offset: 3 }] },
      { history: fresh.events, inFlight: { [responseId]: { responseId, part: 2, type: "AI", text: "Hel" } } },
    );
    await resumed.until((s) => s.textOf(responseId) === "Hello");
    expect(resumed.deltas[0]!.text).toMatchObject({ part: 2, offset: 3, delta: "lo" });

    await streamText({ responseId, type: "AI", delta: ", world", offset: 5 });
    const completed = await write.completeResponse({ responseId }); // commits the open text with the end
    expect(member(completed, "Response").status).toBe("COMPLETED");
    for (const subscriber of [fresh, resumed]) {
      await subscriber.until((s) => s.deltas.at(-1)?.status === "COMPLETED");
      // One write, one delta: the answer's event and the final status together.
      const last = subscriber.deltas.at(-1)!;
      expect([last.previousSeq, last.seq, last.endsTextPart]).toEqual([2, 3, 2]);
      expect(last.append.map((event) => event.__typename)).toEqual(["AiEvent"]);
      expect(subscriber.events.map((e) => e.content)).toEqual([
        "Tell me a story",
        "Thinking about it. ",
        "Hello, world",
      ]);
      expect(subscriber.inFlight).toEqual({});
      expect([subscriber.duplicates, subscriber.gaps]).toEqual([0, 0]);
    }
    fresh.close();
    resumed.close();
  });

  it("interruptResponse keeps the streamed text (SAVE_PARTIAL, SAVE_MARKED) or drops it and says so (DISCARD)", async () => {
    const outcomes: Record<string, unknown> = {};
    for (const behavior of ["SAVE_PARTIAL", "SAVE_MARKED", "DISCARD"] as const) {
      const { responseId, dialogId } = await startTurn();
      const watcher = new TextSubscriber(iterateTextDeltas(wsClient(server)), { dialogId, afterSeq: 1 });
      await streamText({ responseId, type: "AI", delta: "Half an ans" });
      await watcher.until((s) => s.textOf(responseId) === "Half an ans");
      const interrupted = await write.interruptResponse({ responseId, behavior });
      await watcher.until((s) => s.deltas.at(-1)?.status !== "IN_PROGRESS");
      expect(watcher.inFlight).toEqual({});
      expect(watcher.deltas.at(-1)!.endsTextPart).toBe(1);
      outcomes[behavior] = [member(interrupted, "Response").status, watcher.events.map((e) => [e.content, e.metadata])];
      watcher.close();
    }
    expect(outcomes).toEqual({
      SAVE_PARTIAL: ["INCOMPLETE", [["Half an ans", {}]]],
      SAVE_MARKED: ["INCOMPLETE", [["Half an ans", { interrupted: true }]]],
      DISCARD: ["CANCELLED", []],
    });
  });

  it("a bad delta gets a typed error and changes nothing", async () => {
    const { responseId } = await startTurn();
    await streamText({ responseId, type: "AI", delta: "abc" });
    const rejected = [
      await streamText({ responseId, type: "AI", delta: "x", offset: 1 }), // repeats characters
      await streamText({ responseId, type: "AI", delta: "x", offset: 9 }), // leaves a gap
      await streamText({ responseId, type: "AI", delta: "x".repeat(64 * 1024 + 1) }),
      await streamText({ responseId, type: "AI", delta: "" }),
      await streamText({ responseId, type: "TOOL_CALL", delta: "x" }),
      await streamText({ responseId: "resp_nothing", type: "AI", delta: "x" }),
    ];
    expect(
      rejected.map((r) => [
        r.__typename,
        "code" in r ? r.code : undefined,
        "expectedOffset" in r ? r.expectedOffset : undefined,
      ]),
    ).toEqual([
      ["TextOffsetError", "CONFLICT", 3],
      ["TextOffsetError", "CONFLICT", 3],
      ["ValidationError", "VALIDATION_ERROR", undefined],
      ["ValidationError", "VALIDATION_ERROR", undefined],
      ["ValidationError", "VALIDATION_ERROR", undefined],
      ["NotFoundError", "NOT_FOUND", undefined],
    ]);
    expect((await server.writes.textOf(responseId))?.text).toBe("abc");

    await write.completeResponse({ responseId });
    const late = await streamText({ responseId, type: "AI", delta: "more" });
    expect([late.__typename, withField(late, "code").code]).toEqual(["ConflictError", "CONFLICT"]);
    expect(
      await prisma.event.findMany({ where: { responseId }, select: { content: true }, orderBy: { seq: "asc" } }),
    ).toEqual([{ content: "Tell me a story" }, { content: "abc" }]);
  });

  it("clearDialog drops the text in flight for every subscriber", async () => {
    const { responseId, dialogId } = await startTurn();
    const watcher = new TextSubscriber(iterateTextDeltas(wsClient(server)), { dialogId, afterSeq: 1 });
    await streamText({ responseId, type: "AI", delta: "Soon to be gone" });
    await watcher.until((s) => s.textOf(responseId) === "Soon to be gone");
    await run(CLEAR_DIALOG, { id: dialogId });
    await watcher.until((s) => s.deltas.at(-1)?.cleared === true);
    expect(watcher.inFlight).toEqual({});
    // Noticed when the next checkpoint is due (the bound on how long a deleted response takes text).
    now += 60_000;
    const late = await streamText({ responseId, type: "AI", delta: " more" });
    expect([late.__typename, withField(late, "message").message]).toEqual([
      "NotFoundError",
      `Response ${responseId} not found`,
    ]);
    watcher.close();
  });

  it("a response whose agent vanished ends INCOMPLETE with its text so far", async () => {
    const { responseId, dialogId } = await startTurn();
    const watcher = new TextSubscriber(iterateTextDeltas(wsClient(server)), { dialogId, afterSeq: 1 });
    await streamText({ responseId, type: "AI", delta: "I was saying" });
    const writes = server.writes;
    now += 29_000;
    expect(await writes.endIdleResponses()).not.toContain(responseId);
    now += 2_000;
    expect(await writes.endIdleResponses()).toContain(responseId);
    await watcher.until((s) => s.deltas.at(-1)?.status === "INCOMPLETE");
    expect(watcher.events.map((e) => e.content)).toEqual(["I was saying"]);
    expect(watcher.inFlight).toEqual({});
    watcher.close();
  });

  it("after a restart of the streaming server the checkpointed text remains, and the agent resends from where it says", async () => {
    const { responseId, dialogId } = await startTurn();
    let text = "";
    for (const word of ["one ", "two ", "three ", "four ", "five ", "six "]) {
      await streamText({ responseId, type: "AI", delta: word, offset: text.length });
      text += word;
    }
    await server.close();
    server = await start();
    run = httpExecutor(server);
    write = writer(run);

    const watcher = new TextSubscriber(iterateTextDeltas(wsClient(server)), { dialogId, afterSeq: 1 });
    const next = await streamText({ responseId, type: "AI", delta: "seven ", offset: text.length });
    let kept: string;
    if (redisUrl) {
      // With Redis the text outlives any instance: nothing was lost.
      expect(next.__typename).toBe("TextPosition");
      kept = text + "seven ";
    } else {
      // Checkpointed every 10 characters: at most that many were lost, and the agent is told where to go on.
      expect(next.__typename).toBe("TextOffsetError");
      expect(text.length - member(next, "TextOffsetError").expectedOffset).toBeLessThan(10 + "six ".length);
      kept = text.slice(0, member(next, "TextOffsetError").expectedOffset);
      expect(
        await streamText({ responseId, type: "AI", delta: text.slice(kept.length) + "seven ", offset: kept.length }),
      ).toMatchObject({
        length: text.length + 6,
      });
      kept = text + "seven ";
    }
    await watcher.until((s) => s.textOf(responseId) === kept);
    await write.completeResponse({ responseId });
    await watcher.until((s) => s.deltas.at(-1)?.status === "COMPLETED");
    expect(watcher.events.map((e) => e.content)).toEqual([kept]);
    expect([watcher.duplicates, watcher.gaps]).toEqual([0, 0]);
    watcher.close();
  });

  it.runIf(redisUrl)("a subscriber on another instance joins mid-answer and follows it through Redis", async () => {
    const other = await start();
    const { responseId, dialogId } = await startTurn();
    await streamText({ responseId, type: "AI", delta: "Across " });
    const far = new TextSubscriber(iterateTextDeltas(wsClient(other)), { dialogId, afterSeq: 1 });
    await far.until((s) => s.textOf(responseId) === "Across ");
    let text = "Across ";
    for (const word of words(30)) {
      await streamText({ responseId, type: "AI", delta: word, offset: text.length });
      text += word;
    }
    // The agent moves to the other instance for the rest (a load balancer may do that).
    await streamText({ responseId, type: "AI", delta: "end.", offset: text.length }, httpExecutor(other));
    text += "end.";
    await far.until((s) => s.textOf(responseId) === text);
    await writer(httpExecutor(other)).completeResponse({ responseId });
    await far.until((s) => s.deltas.at(-1)?.status === "COMPLETED");
    expect(far.events.map((e) => e.content)).toEqual([text]);
    expect([far.duplicates, far.gaps]).toEqual([0, 0]);
    far.close();
  });

  // Last: once an API key exists, every call needs one.
  it("another tenant's response is not found, and its text is untouched", async () => {
    const owner = await tenantKey("tenant-a");
    const intruder = await tenantKey("tenant-b");
    const asOwner = asCaller(server, owner.key);
    const created = await asOwner(CREATE_RESPONSE);
    const responseId = withField(created.body.data!.createResponse, "id").id;
    const delta = (key: typeof owner) =>
      asCaller(server, key.key)(STREAM_TEXT, { input: { responseId, type: "AI", delta: "hi" } });
    expect((await delta(owner)).body.data!.streamText.__typename).toBe("TextPosition");
    const refused = (await delta(intruder)).body.data!.streamText;
    expect([refused.__typename, withField(refused, "message").message]).toEqual([
      "NotFoundError",
      `Response ${responseId} not found`,
    ]);
    expect((await server.writes.textOf(responseId))?.text).toBe("hi");
  });
});
