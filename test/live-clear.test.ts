// clearDialog is a write a subscriber sees: a live subscriber gets a cleared delta at the dialog's
// seq and then the writes after it; one resuming from before the clear is told about it first;
// applyHistoryDelta and watchHistory empty what they hold.
import { beforeAll, describe, expect, it } from "vitest";
import { applyHistoryDelta, ClearDialogDocument, CreateResponseDocument } from "../src/client/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { closeAfterAll, testClient, transports } from "./support/client.js";
import { httpExecutor, startTestServer, take, wsClient, subscribe as subscribeTo } from "./support/live.js";
import { graphql } from "../src/client/generated/index.js";
import { withField } from "./support/narrow.js";

const DELTAS = graphql(`
  subscription LiveClearHistoryDeltaCleared($dialogId: ID!, $afterSeq: Int) {
    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
      cleared
      responseId
      seq
      previousSeq
      status
      append {
        ... on BaseHistoryEvent {
          seq
        }
      }
    }
  }
`);

let server: RunningServer;
let run: ReturnType<typeof httpExecutor>;
beforeAll(async () => {
  server = await startTestServer();
  run = httpExecutor(server);
});

const WRITE = graphql(`
  mutation LiveClearCreateResponse($input: CreateResponseInput!) {
    createResponse(input: $input) {
      ... on Response {
        id
        dialog {
          id
        }
      }
    }
  }
`);
const CLEAR = graphql(`
  mutation LiveClearClearDialog($id: ID!) {
    clearDialog(input: { id: $id }) {
      __typename
    }
  }
`);

async function dialogWithTwoEvents() {
  const { createResponse } = await run(WRITE, {
    input: { input: [{ human: { content: "one" } }], output: [{ ai: { content: "1" } }] },
  });
  return withField(createResponse, "dialog").dialog.id;
}

function subscribe(dialogId: string, afterSeq?: number) {
  return subscribeTo(wsClient(server), DELTAS, { dialogId, ...(afterSeq !== undefined && { afterSeq }) });
}

describe("clearDialog on the historyDelta stream", () => {
  it("is delivered live as a cleared delta at the dialog's seq, then the next write follows it", async () => {
    const dialogId = await dialogWithTwoEvents();
    // Resuming from seq 1 replays seq 2 first: once it arrives, the subscription is live.
    const deltas = subscribe(dialogId, 1);
    const [replayed] = await take(deltas, 1);
    expect(replayed!.historyDelta).toMatchObject({ cleared: false, seq: 2 });
    await run(CLEAR, { id: dialogId });
    await run(WRITE, { input: { dialogId, input: [{ human: { content: "again" } }] } });
    const [cleared, next] = (await take(deltas, 2)).map((d) => d.historyDelta);
    expect(cleared).toEqual({ cleared: true, responseId: null, seq: 2, previousSeq: 2, status: null, append: [] });
    expect(next).toMatchObject({ cleared: false, previousSeq: 2, seq: 3, append: [{ seq: 3 }] });
  });

  it("is replayed first to a subscriber resuming from before it", async () => {
    const dialogId = await dialogWithTwoEvents();
    await run(CLEAR, { id: dialogId });
    await run(WRITE, { input: { dialogId, input: [{ human: { content: "again" } }] } });
    const [cleared, next] = (await take(subscribe(dialogId, 1), 2)).map((d) => d.historyDelta);
    expect(cleared).toMatchObject({ cleared: true, seq: 2, previousSeq: 2, append: [] });
    expect(next).toMatchObject({ cleared: false, previousSeq: 2, seq: 3, append: [{ seq: 3 }] });
  });
});

const DELETE_DIALOG = graphql(`
  mutation LiveClearDeleteDialog($id: ID!) {
    deleteDialog(input: { id: $id }) {
      __typename
    }
  }
`);

describe("deleteDialog on the historyDelta stream", () => {
  it("ends the dialog's subscriptions", async () => {
    const dialogId = await dialogWithTwoEvents();
    const deltas = subscribe(dialogId, 1);
    await take(deltas, 1); // the replay of seq 2: the subscription is live
    await run(DELETE_DIALOG, { id: dialogId });
    expect(await deltas.next()).toEqual({ done: true, value: undefined });
  });
});

describe("applyHistoryDelta with a cleared delta", () => {
  it("empties the list, and the next delta continues from the clear's seq", () => {
    const history = [{ seq: 1 }, { seq: 2 }];
    const outcome = applyHistoryDelta(history, { cleared: true, previousSeq: 2, seq: 2, append: [] });
    expect(outcome).toEqual({ status: "cleared", removed: 2, lastSeq: 2 });
    expect(history).toEqual([]);
    const next = applyHistoryDelta(
      history,
      { previousSeq: 2, seq: 3, append: [{ seq: 3 }] },
      { lastSeq: outcome.lastSeq },
    );
    expect(next).toEqual({ status: "applied", appended: 1, lastSeq: 3 });
    expect(history).toEqual([{ seq: 3 }]);
  });
});

describe.each(transports)("watchHistory over %s", (transport) => {
  it("shows an empty history after a clear, then the next turn", async () => {
    const client = testClient(server.url, transport);
    const dialogId = await dialogWithTwoEvents();
    const watcher = closeAfterAll(client.watchHistory(dialogId));
    await watcher.until((s) => s.status === "live" && s.events.length === 2);
    await client.request(ClearDialogDocument, { input: { id: dialogId } });
    const cleared = await watcher.until((s) => s.events.length === 0);
    expect(cleared).toMatchObject({ responseId: null, lastSeq: 2, responses: {} });
    const { createResponse } = await client.request(CreateResponseDocument, {
      input: { dialogId, input: [{ human: { content: "again" } }] },
    });
    const after = await watcher.until((s) => s.events.length === 1);
    expect(after.events.map((e) => e.seq)).toEqual([3]);
    expect(after.responseId).toBe((createResponse as { id: string }).id);
  });
});
