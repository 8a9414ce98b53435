// Dialog.history / Response.context pagination: Relay both ways, type filters, and totals
// computed over the whole selection rather than the page.
import { beforeAll, describe, expect, it } from "vitest";
import { execute, executeOk } from "./support/graphql.js";
import type { ResultOf, VariablesOf } from "@graphql-typed-document-node/core";
import { graphql } from "../src/client/generated/index.js";
import { turn } from "./support/dialogs.js";

let dialogId: string;
const HISTORY = graphql(`
  query HistoryPaginationPage(
    $id: ID!
    $first: Int
    $after: String
    $last: Int
    $before: String
    $types: [HistoryEventType!]
  ) {
    dialog(id: $id) {
      history(first: $first, after: $after, last: $last, before: $before, types: $types) {
        ...HistoryPageFields
      }
    }
  }
`);
type Page = NonNullable<ResultOf<typeof HISTORY>["dialog"]>["history"];
const history = async (args: Omit<VariablesOf<typeof HISTORY>, "id">): Promise<Page> =>
  (await executeOk(HISTORY, { id: dialogId, ...args })).dialog!.history;
/** Every event carries its seq (all event types implement BaseHistoryEvent). */
const seqs = (page: Page) => page.edges.map((e) => (e.node as { seq: number }).seq);

beforeAll(async () => {
  // 3 turns, 12 events: system + human, then reasoning/ai/tool call/tool result/ai, twice.
  const first = await turn({
    input: [{ system: { content: "Be brief." } }, { human: { content: "Read a.txt" } }],
    output: [
      { reasoning: { content: "Need the file.", modelName: "o3" } },
      { toolCall: { callId: "c1", toolName: "read_file", args: { path: "a.txt" } } },
      { toolResult: { callId: "c1", content: "alpha" } },
      { ai: { content: "It says alpha." } },
    ],
  });
  await turn({
    previousResponseId: first.id,
    input: [{ human: { content: "And b.txt?" } }],
    output: [
      { toolCall: { callId: "c2", toolName: "read_file", args: { path: "b.txt" } } },
      { toolResult: { callId: "c2", content: "boom", isError: true } },
      { ai: { content: "Could not read it." } },
    ],
  });
  dialogId = first.dialogId;
  await turn({ dialogId, input: [{ human: { content: "Thanks" } }], output: [{ ai: { content: "Bye" } }] });
});

describe("history pagination", () => {
  it("walks forward page by page with no gap or repeat", async () => {
    const seen: number[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Page = await history({ first: 5, after });
      seen.push(...seqs(page));
      expect(page.totalMessages).toBe(12);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it("gives the same events in the same order whatever the page size and direction", async () => {
    const all = Array.from({ length: 12 }, (_, i) => i + 1);
    for (const size of [1, 2, 3, 4, 7]) {
      const forward: number[] = [];
      for (let after: string | null = null; ;) {
        const page: Page = await history({ first: size, after });
        forward.push(...seqs(page));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      const backward: number[] = [];
      for (let before: string | null = null; ;) {
        const page: Page = await history({ last: size, before });
        backward.unshift(...seqs(page));
        if (!page.pageInfo.hasPreviousPage) break;
        before = page.pageInfo.startCursor;
      }
      expect({ size, forward, backward }).toEqual({ size, forward: all, backward: all });
    }
    // Both bounds at once, each inside a different response: exactly the events between them.
    const whole = await history({ first: 12 });
    const between = await history({ first: 12, after: whole.edges[2]!.cursor, before: whole.edges[9]!.cursor });
    expect(seqs(between)).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it("walks backward from the end with last/before", async () => {
    const end = await history({ last: 5 });
    expect(seqs(end)).toEqual([8, 9, 10, 11, 12]);
    expect(end.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const earlier = await history({ last: 5, before: end.pageInfo.startCursor });
    expect(seqs(earlier)).toEqual([3, 4, 5, 6, 7]);
    const start = await history({ last: 5, before: earlier.pageInfo.startCursor });
    expect(seqs(start)).toEqual([1, 2]);
    expect(start.pageInfo.hasPreviousPage).toBe(false);
  });

  it("filters by type, with totals over the filtered selection", async () => {
    const tools = await history({ types: ["TOOL_CALL", "TOOL_RESULT"], first: 2 });
    expect(tools.edges.map((e) => e.node.__typename)).toEqual(["ToolCallEvent", "ToolResultEvent"]);
    expect(tools.totalMessages).toBe(4);
    expect(tools.totalToolCalls).toBe(2);
    expect(tools.totalReasoning).toBe(0);
    expect(tools.pageInfo.hasNextPage).toBe(true);
    const rest = await history({ types: ["TOOL_CALL", "TOOL_RESULT"], after: tools.pageInfo.endCursor });
    expect(rest.edges.map((e) => e.node)).toEqual([
      expect.objectContaining({
        __typename: "ToolCallEvent",
        callId: "c2",
        toolName: "read_file",
        args: { path: "b.txt" },
      }),
      // Written without a tool name, the result takes its call's.
      expect.objectContaining({
        __typename: "ToolResultEvent",
        callId: "c2",
        toolName: "read_file",
        content: "boom",
        isError: true,
      }),
    ]);
  });

  it("serves every event type with its own fields", async () => {
    const all = await history({});
    expect(all.edges.map((e) => e.node.__typename)).toEqual([
      "SystemEvent",
      "HumanEvent",
      "ReasoningEvent",
      "ToolCallEvent",
      "ToolResultEvent",
      "AiEvent",
      "HumanEvent",
      "ToolCallEvent",
      "ToolResultEvent",
      "AiEvent",
      "HumanEvent",
      "AiEvent",
    ]);
    expect(all.edges[2]!.node).toMatchObject({ content: "Need the file.", modelName: "o3" });
    expect(all).toMatchObject({ totalMessages: 12, totalReasoning: 1, totalToolCalls: 2 });
  });

  it("refuses a cursor it did not make", async () => {
    const result = await execute(HISTORY, { id: dialogId, after: "bm9wZQ" });
    expect(result.errors?.[0]).toMatchObject({ extensions: { code: "VALIDATION_ERROR" } });
  });
});
