// Seed 004's DefaultHistoryHandler, for dialogql: a frontend keeps its own list of events and
// applies each historyDelta to it. Applying a dialog's whole stream to an empty list rebuilds
// exactly Dialog.history; a delta it already has changes nothing; a missing one is reported.
import { type ApplyHistoryDeltaResult, applyHistoryDelta } from "dialogql/client";
import type { ResultOf } from "@graphql-typed-document-node/core";
import { beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../src/client/generated/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { writer } from "./support/dialogs.js";
import { httpExecutor, startTestServer, take, wsClient, subscribe } from "./support/live.js";

// One selection for the events of both the deltas and Dialog.history, so they compare exactly.
graphql(`
  fragment ApplyHistoryDeltaEvent on HistoryEvent {
    __typename
    ... on BaseHistoryEvent {
      id
      seq
      type
      createdAt
      metadata
      response {
        id
      }
    }
    ... on HumanEvent {
      content
      parts {
        __typename
      }
    }
    ... on AiEvent {
      content
    }
    ... on SystemEvent {
      content
    }
    ... on ReasoningEvent {
      content
      modelName
    }
    ... on ToolCallEvent {
      callId
      toolName
      args
    }
    ... on ToolResultEvent {
      callId
      toolName
      content
      isError
    }
  }
`);
const HISTORY_DELTA = graphql(`
  subscription ApplyHistoryDeltaStream($dialogId: ID!, $afterSeq: Int) {
    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
      previousSeq
      seq
      status
      append {
        ...ApplyHistoryDeltaEvent
      }
    }
  }
`);

const DIALOG_HISTORY = graphql(`
  query ApplyHistoryDeltaDialogHistory($id: ID!) {
    dialog(id: $id) {
      history(first: 1000) {
        edges {
          node {
            ...ApplyHistoryDeltaEvent
          }
        }
      }
    }
  }
`);

type Delta = ResultOf<typeof HISTORY_DELTA>["historyDelta"];
type HistoryEvent = Delta["append"][number];

let server: RunningServer;
let run: ReturnType<typeof httpExecutor>;
let dialogId: string;
const deltas: Delta[] = [];

// Two turns of an agent, one interrupted, with every kind of step; a delta after each write.
beforeAll(async () => {
  server = await startTestServer();
  run = httpExecutor(server);
  const write = writer(run);
  const first = await write.createResponse({
    input: [{ system: { content: "You are terse." } }, { human: { content: "Weather in Oslo?" } }],
  });
  dialogId = first.dialog.id;
  const stream = subscribe(wsClient(server), HISTORY_DELTA, { dialogId, afterSeq: 0 });
  const collect = async () => deltas.push(...(await take(stream, 1)).map((d) => d.historyDelta));
  await collect();

  const steps: (() => Promise<unknown>)[] = [
    () =>
      write.appendEvents({
        responseId: first.id,
        events: [
          { reasoning: { content: "Look it up." } },
          { toolCall: { callId: "call_w", toolName: "weather", args: { city: "Oslo" } } },
        ],
      }),
    () => write.appendEvents({ responseId: first.id, events: [{ toolResult: { callId: "call_w", content: "4°C" } }] }),
    () => write.appendEvents({ responseId: first.id, events: [{ ai: { content: "4°C." } }] }),
    () => write.completeResponse({ responseId: first.id }),
    async () => {
      const second = await write.createResponse({ dialogId, input: [{ human: { content: "And tomorrow?" } }] });
      await collect();
      return write.interruptResponse({ responseId: second.id, behavior: "SAVE_MARKED", partialText: "Tomorrow it" });
    },
  ];
  for (const step of steps) {
    await step();
    await collect();
  }
  await stream.return?.();
});

async function dialogHistory(): Promise<HistoryEvent[]> {
  const data = await run(DIALOG_HISTORY, { id: dialogId });
  return data.dialog!.history.edges.map((edge) => edge.node);
}

describe("applyHistoryDelta", () => {
  it("rebuilds exactly Dialog.history from the dialog's deltas", async () => {
    const history: HistoryEvent[] = [];
    const results = deltas.map((delta) => applyHistoryDelta(history, delta));
    expect(results.map((r) => r.status)).toEqual(deltas.map(() => "applied"));
    const expected = await dialogHistory();
    expect(expected.map((e) => e.__typename)).toEqual([
      "SystemEvent",
      "HumanEvent",
      "ReasoningEvent",
      "ToolCallEvent",
      "ToolResultEvent",
      "AiEvent",
      "HumanEvent",
      "AiEvent",
    ]);
    expect(history).toEqual(expected);
    expect(history.at(-1)!.metadata).toEqual({ interrupted: true });
    expect(deltas.map((d) => d.status).at(-1)).toBe("INCOMPLETE");
  });

  it("ignores a delta the list already has", () => {
    const history: HistoryEvent[] = [];
    for (const delta of deltas) applyHistoryDelta(history, delta);
    const before = [...history];
    const withEvents = deltas.filter((d) => d.append.length > 0);
    for (const delta of withEvents) {
      expect(applyHistoryDelta(history, delta)).toEqual<ApplyHistoryDeltaResult>({ status: "duplicate", lastSeq: 8 });
    }
    expect(history).toEqual(before);
  });

  it("reports a gap instead of applying a delta that does not follow the list", () => {
    const history: HistoryEvent[] = [];
    applyHistoryDelta(history, deltas[0]!); // seqs 1-2
    const afterGap = deltas.find((d) => d.previousSeq > 2)!;
    expect(applyHistoryDelta(history, afterGap)).toEqual<ApplyHistoryDeltaResult>({
      status: "gap",
      lastSeq: 2,
      missingFrom: 3,
      missingTo: afterGap.previousSeq,
    });
    expect(history.map((e) => e.seq)).toEqual([1, 2]);
  });

  it("applies a status-only delta without appending, and only the new part of an overlapping one", () => {
    const history = [{ seq: 1 }, { seq: 2 }];
    expect(applyHistoryDelta(history, { previousSeq: 2, seq: 2, append: [] })).toEqual({
      status: "applied",
      appended: 0,
      lastSeq: 2,
    });
    expect(applyHistoryDelta(history, { previousSeq: 1, seq: 3, append: [{ seq: 2 }, { seq: 3 }] })).toEqual({
      status: "applied",
      appended: 1,
      lastSeq: 3,
    });
    expect(history).toEqual([{ seq: 1 }, { seq: 2 }, { seq: 3 }]);
  });
});
