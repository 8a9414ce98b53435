// A frontend watches a turn being written step by step, over graphql-ws and over SSE, and sees
// each committed write once, in order, with the events' own types.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server/http-server.js";
import { member, writer } from "./support/dialogs.js";
import {
  type DeltaData,
  HISTORY_DELTA,
  httpExecutor,
  type Result,
  sseClient,
  startTestServer,
  subscribe,
  take,
  wsClient,
} from "./support/live.js";
import { graphql } from "../src/client/generated/index.js";

let server: RunningServer;
let write: ReturnType<typeof writer>;

beforeAll(async () => {
  server = await startTestServer();
  write = writer(httpExecutor(server));
});

type Subscribe = <T, V>(document: TypedDocumentNode<T, V>, variables: V) => AsyncIterableIterator<Result<T>>;

const transports: [string, () => Subscribe][] = [
  [
    "graphql-ws",
    () => {
      const client = wsClient(server);
      return (document, variables) => subscribe(client, document, variables);
    },
  ],
  [
    "SSE",
    () => {
      const client = sseClient(server);
      return (document, variables) => subscribe(client, document, variables);
    },
  ],
];

const summarize = ({ historyDelta: d }: DeltaData) => ({
  previousSeq: d.previousSeq,
  seq: d.seq,
  status: d.status,
  responseStatus: d.response!.status,
  events: d.append.map((e) => `${e.seq} ${e.__typename}`),
});

describe.each(transports)("historyDelta over %s", (_name, connect) => {
  it("delivers each step of an agent's turn once, in order, typed", async () => {
    const subscribe = connect();
    const started = await write.createResponse({
      model: "gpt-4o",
      input: [{ human: { content: "Weather in Oslo?" } }],
    });
    expect(started.status).toBe("IN_PROGRESS");
    const dialogId = started.dialog.id;
    const deltas = subscribe(HISTORY_DELTA, { dialogId, afterSeq: 0 });
    // The first delta is the replay of what was already there; once it has arrived, the server
    // is listening, and every later write arrives live.
    const received = await take<DeltaData>(deltas, 1);
    expect(received[0]!.historyDelta).toMatchObject({ dialogId, responseId: started.id });

    const steps = [
      [
        { reasoning: { content: "I should look it up." } },
        { toolCall: { callId: "call_1", toolName: "weather", args: { city: "Oslo" } } },
      ],
      [{ toolResult: { callId: "call_1", content: "4°C, rain" } }],
      [{ ai: { content: "It is 4°C and raining in Oslo." } }],
    ];
    for (const events of steps) {
      expect((await write.appendEvents({ responseId: started.id, events })).__typename).toBe("Response");
      // Each delta before the next write, so each shows the response as that write left it.
      received.push(...(await take<DeltaData>(deltas, 1)));
    }
    expect(member(await write.completeResponse({ responseId: started.id }), "Response").status).toBe("COMPLETED");
    received.push(...(await take<DeltaData>(deltas, 1)));

    const inProgress = { status: "IN_PROGRESS", responseStatus: "IN_PROGRESS" };
    expect(received.map(summarize)).toEqual([
      { previousSeq: 0, seq: 1, ...inProgress, events: ["1 HumanEvent"] },
      { previousSeq: 1, seq: 3, ...inProgress, events: ["2 ReasoningEvent", "3 ToolCallEvent"] },
      { previousSeq: 3, seq: 4, ...inProgress, events: ["4 ToolResultEvent"] },
      { previousSeq: 4, seq: 5, ...inProgress, events: ["5 AiEvent"] },
      { previousSeq: 5, seq: 5, status: "COMPLETED", responseStatus: "COMPLETED", events: [] },
    ]);
    expect(new Set(received.map((d) => d.historyDelta.responseId))).toEqual(new Set([started.id]));
    await deltas.return?.();
  });

  it("delivers live deltas with their contents, and replays from afterSeq", async () => {
    const subscribe = connect();
    const started = await write.createResponse({ input: [{ human: { content: "Hi" } }] });
    const dialogId = started.dialog.id;
    await write.appendEvents({ responseId: started.id, events: [{ ai: { content: "Hello" } }] });
    // Resume after seq 1: only the answer is replayed.
    const deltas = subscribe(HISTORY_DELTA, { dialogId, afterSeq: 1 });
    const [first] = await take<DeltaData>(deltas, 1);
    expect(first!.historyDelta.append).toEqual([
      { __typename: "AiEvent", id: expect.stringMatching(/^evt_/), seq: 2, metadata: {}, content: "Hello" },
    ]);
    await write.appendEvents({
      responseId: started.id,
      events: [{ toolCall: { callId: "call_2", toolName: "search", args: { q: "news" } } }],
    });
    const [second] = await take<DeltaData>(deltas, 1);
    expect(second!.historyDelta.append).toEqual([
      {
        __typename: "ToolCallEvent",
        id: expect.stringMatching(/^evt_/),
        seq: 3,
        metadata: {},
        callId: "call_2",
        toolName: "search",
        args: { q: "news" },
      },
    ]);
    await deltas.return?.();
  });

  it("answers an unknown dialog with NOT_FOUND", async () => {
    const subscribe = connect();
    const results = subscribe(HISTORY_DELTA, { dialogId: "01JNOSUCHDIALOG" });
    const { value } = await results.next();
    expect(value.errors).toEqual([
      expect.objectContaining({ message: "Dialog 01JNOSUCHDIALOG not found", extensions: { code: "NOT_FOUND" } }),
    ]);
    await results.return?.();
  });
});

describe("historyDelta arguments", () => {
  it("an afterSeq past the dialog's last seq is a VALIDATION_ERROR", async () => {
    const started = await write.createResponse({ input: [{ human: { content: "one event" } }] });
    const results = subscribe(wsClient(server), HISTORY_DELTA, { dialogId: started.dialog.id, afterSeq: 5 });
    const { value } = await results.next();
    expect(value.errors).toEqual([
      expect.objectContaining({
        message: "afterSeq: must be between 0 and the dialog's last seq (1)",
        extensions: expect.objectContaining({ code: "VALIDATION_ERROR" }),
      }),
    ]);
    await results.return?.();
  });
});

describe("responseUpdated", () => {
  const RESPONSE_UPDATED = graphql(`
    subscription LiveTransportsResponseUpdatedId($responseId: ID!) {
      responseUpdated(responseId: $responseId) {
        id
        status
        output {
          __typename
          ... on AiEvent {
            content
          }
        }
      }
    }
  `);

  it("shows the response now, after each write to it, and ends when it is finished", async () => {
    const client = wsClient(server);
    const started = await write.createResponse({ input: [{ human: { content: "Tell me a joke" } }] });
    const updates = subscribe(client, RESPONSE_UPDATED, { responseId: started.id });
    const [now] = await take(updates, 1);
    expect(now!.responseUpdated).toEqual({ id: started.id, status: "IN_PROGRESS", output: [] });

    await write.appendEvents({ responseId: started.id, events: [{ ai: { content: "Why did" } }] });
    const [afterAppend] = await take(updates, 1);
    expect(afterAppend!.responseUpdated.output).toEqual([{ __typename: "AiEvent", content: "Why did" }]);

    await write.interruptResponse({ responseId: started.id, behavior: "DISCARD" });
    const [last] = await take(updates, 1);
    expect(last!.responseUpdated.status).toBe("CANCELLED");
    expect((await updates.next()).done).toBe(true);
  });

  it("answers an unknown response with NOT_FOUND", async () => {
    const results = subscribe(wsClient(server), RESPONSE_UPDATED, { responseId: "resp_NOPE" });
    const { value } = await results.next();
    expect(value.errors).toEqual([
      expect.objectContaining({ message: "Response resp_NOPE not found", extensions: { code: "NOT_FOUND" } }),
    ]);
    await results.return?.();
  });
});

describe("shutdown", () => {
  it("ends open WebSocket and SSE subscriptions and stops listening", async () => {
    const doomed = await startTestServer();
    const started = await writer(httpExecutor(doomed)).createResponse({ input: [{ human: { content: "hi" } }] });
    const variables = { dialogId: started.dialog.id, afterSeq: 0 };
    const overWs = subscribe(wsClient(doomed), HISTORY_DELTA, variables);
    const overSse = subscribe(sseClient(doomed), HISTORY_DELTA, variables);
    await take(overWs, 1);
    await take(overSse, 1);

    await doomed.close();
    // Each stream ends, by completing or by reporting the closed connection; neither hangs.
    const ends = (results: AsyncIterator<unknown>) =>
      results.next().then(
        (result) => (result.done ? "completed" : "received"),
        () => "closed",
      );
    expect(await ends(overWs)).not.toBe("received");
    expect(await ends(overSse)).not.toBe("received");
    await expect(fetch(`${doomed.url}/graphql`)).rejects.toThrow();
  });
});
