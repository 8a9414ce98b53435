// A frontend follows a dialog with watchHistory while an agent writes to it: over graphql-ws and
// over SSE, its list is always, once the writes settle, exactly the server's history.
import { beforeAll, describe, expect, it } from "vitest";
import {
  AppendEventsDocument,
  CompleteResponseDocument,
  CreateResponseDocument,
  type CreateResponseInput,
  type DialogqlClient,
  type HistoryEventInput,
} from "../src/client/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { closeAfterAll, lines, settledOnServerHistory, testClient, transports } from "./support/client.js";
import { startTestServer } from "./support/live.js";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});

async function createResponse(client: DialogqlClient, input: CreateResponseInput) {
  const { createResponse: result } = await client.request(CreateResponseDocument, { input });
  if (result.__typename !== "Response") throw new Error(`createResponse: ${JSON.stringify(result)}`);
  return result;
}

async function append(client: DialogqlClient, responseId: string, events: HistoryEventInput[]) {
  const { appendEvents } = await client.request(AppendEventsDocument, { input: { responseId, events } });
  expect(appendEvents.__typename).toBe("Response");
}

describe.each(transports)("watchHistory over %s", (transport) => {
  it("follows an agent's turn step by step and the next turn, equal to the server's history", async () => {
    const client = testClient(server.url, transport);
    const turn = await createResponse(client, { model: "gpt-4o", input: [{ human: { content: "Read file.py" } }] });
    const dialogId = turn.dialog.id;
    const watcher = closeAfterAll(client.watchHistory(dialogId));
    await watcher.until((s) => s.status === "live" && s.events.length === 1);

    await append(client, turn.id, [{ reasoning: { content: "I should read the file first...", modelName: "o3" } }]);
    await append(client, turn.id, [
      { ai: { content: "I'll read it" } },
      { toolCall: { callId: "call_1", toolName: "read_file", args: { path: "file.py" } } },
    ]);
    await client.request(CompleteResponseDocument, { input: { responseId: turn.id, usage: { totalTokens: 42 } } });
    const next = await createResponse(client, {
      dialogId,
      input: [{ toolResult: { callId: "call_1", content: "print('hi')" } }],
      output: [{ ai: { content: "File contains..." } }],
    });

    const { expected, actual, state } = await settledOnServerHistory(watcher, client, dialogId);
    expect(actual).toEqual(expected);
    expect(actual).toEqual(["1 HUMAN", "2 REASONING", "3 AI", "4 TOOL_CALL", "5 TOOL_RESULT", "6 AI"]);
    expect(state.responseId).toBe(next.id);
    expect(state.lastSeq).toBe(6);
    expect(state.responses[turn.id]).toMatchObject({ status: "COMPLETED", usage: { totalTokens: 42 } });
    expect(state.events[1]).toMatchObject({ __typename: "ReasoningEvent", modelName: "o3" });
  });

  it("moves to another branch when the head does, while a pinned watcher keeps its own", async () => {
    const client = testClient(server.url, transport);
    const root = await createResponse(client, {
      input: [{ human: { content: "Pick a colour" } }],
      output: [{ ai: { content: "Blue" } }],
    });
    const dialogId = root.dialog.id;
    const first = await createResponse(client, {
      previousResponseId: root.id,
      input: [{ human: { content: "Why blue?" } }],
      output: [{ ai: { content: "It is calm." } }],
    });
    const head = closeAfterAll(client.watchHistory(dialogId));
    const pinned = closeAfterAll(client.watchHistory(dialogId, { responseId: first.id }));
    await head.until((s) => s.status === "live" && s.events.length === 4);
    await pinned.until((s) => s.status === "live" && s.events.length === 4);

    // A sibling of `first`: the dialog now branches at root, and the head is the new branch.
    const second = await createResponse(client, {
      previousResponseId: root.id,
      input: [{ human: { content: "Another one?" } }],
    });
    await append(client, second.id, [{ ai: { content: "Green." } }]);

    const onHead = await settledOnServerHistory(head, client, dialogId);
    expect(onHead.actual).toEqual(onHead.expected);
    expect(onHead.actual).toEqual(["1 HUMAN", "2 AI", "5 HUMAN", "6 AI"]);
    expect(onHead.state.responseId).toBe(second.id);

    const onFirst = await settledOnServerHistory(pinned, client, dialogId, first.id);
    expect(onFirst.actual).toEqual(["1 HUMAN", "2 AI", "3 HUMAN", "4 AI"]);
    expect(pinned.state.responseId).toBe(first.id);
    await pinned.until((s) => s.lastSeq === 6);
    expect(lines(pinned.state.events)).toEqual(onFirst.expected);
  });

  it("with a tail, reads only the last events, the earlier ones on request, and follows from there", async () => {
    const client = testClient(server.url, transport);
    const first = await createResponse(client, {
      input: [{ human: { content: "q1" } }],
      output: [{ ai: { content: "a1" } }, { ai: { content: "a1b" } }],
    });
    const dialogId = first.dialog.id;
    const second = await createResponse(client, {
      previousResponseId: first.id,
      input: [{ human: { content: "q2" } }],
      output: [{ ai: { content: "a2" } }],
    });
    const watcher = closeAfterAll(client.watchHistory(dialogId, { tail: 2 }));
    const state = await watcher.until((s) => s.status === "live");
    expect(lines(state.events)).toEqual(["4 HUMAN", "5 AI"]);
    expect(state.earlier).toBe(3);

    // A write after the tail was read is followed: nothing between the read and the subscription is lost.
    await createResponse(client, { previousResponseId: second.id, input: [{ human: { content: "q3" } }] });
    await watcher.until((s) => s.events.length === 3);
    await watcher.loadEarlier(2);
    expect(lines(watcher.state.events)).toEqual(["2 AI", "3 AI", "4 HUMAN", "5 AI", "6 HUMAN"]);
    expect(watcher.state.earlier).toBe(1);
    expect(watcher.state.responses[first.id]).toMatchObject({ id: first.id });
    // Asking for more than is left reads what is left.
    await watcher.loadEarlier(10);
    const { expected, actual } = await settledOnServerHistory(watcher, client, dialogId);
    expect(actual).toEqual(expected);
    expect(watcher.state.earlier).toBe(0);
  });

  it("says so when the dialog does not exist", async () => {
    const client = testClient(server.url, transport);
    const watcher = closeAfterAll(client.watchHistory("01JNOSUCHDIALOG0000000000"));
    const state = await watcher.until((s) => s.status === "not-found");
    expect(state.error?.message).toBe("Dialog 01JNOSUCHDIALOG0000000000 not found");
    expect(state.events).toEqual([]);
  });
});
