// Seeds 000 and 003 on a branched dialog: fork (copy()), clear(), len (eventCount), the last
// message (lastEvent), filter_by_role (types), per-event metadata and timestamps, str() (transcript).
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { createResponse, historyOf, rowCounts, turn } from "./support/dialogs.js";
import { execute, executeOk } from "./support/graphql.js";
import { countStatements } from "./support/query-counter.js";
import { dialogMessages } from "./support/formats.js";

let root: { id: string; dialogId: string };
let branchA: { id: string };
let branchB: { id: string };
const askedAt = "2024-01-02T03:04:05.000Z";

// root ── a (tool call and its result)
//     └── b (the head: the newest)
beforeAll(async () => {
  root = await turn({
    model: "gpt-4o",
    input: [
      { system: { content: "Be brief." } },
      { human: { content: "Tell me a joke", metadata: { lang: "en" }, createdAt: askedAt } },
    ],
    output: [{ ai: { content: "Knock knock" } }],
    usage: { inputTokens: 12, outputTokens: 3 },
    metadata: { run: 1 },
  });
  branchA = await turn({
    previousResponseId: root.id,
    input: [{ human: { content: "Who's there? Explain the whole joke in a lot of detail, please." } }],
    output: [
      { reasoning: { content: "They want the long version." } },
      { toolCall: { callId: "call_joke", toolName: "joke_db", args: { id: 7 } } },
      { toolResult: { callId: "call_joke", toolName: "joke_db", content: "Lettuce. Lettuce who? Lettuce in!" } },
      { ai: { content: "Lettuce in, it's cold out here!" } },
    ],
  });
  branchB = await turn({
    previousResponseId: root.id,
    input: [{ human: { content: "Another one" } }],
    output: [{ ai: { content: "Why did the chicken cross the road?" } }],
  });
});

const OVERVIEW = /* GraphQL */ `
  query ($id: ID!, $r: ID, $types: [HistoryEventType!], $max: Int) {
    dialog(id: $id) {
      eventCount(responseId: $r, types: $types)
      lastEvent(responseId: $r, types: $types) {
        __typename
        ... on BaseHistoryEvent {
          seq
        }
        ... on HumanEvent {
          content
        }
        ... on AiEvent {
          content
        }
      }
      transcript(responseId: $r, maxContentLength: $max)
      history(responseId: $r, types: $types) {
        totalMessages
        edges {
          node {
            __typename
          }
        }
      }
    }
  }
`;

describe("reading a branched dialog", () => {
  it("counts and finds the last event of the head's context, or of a branch, optionally by type", async () => {
    const head = (await executeOk(OVERVIEW, { id: root.dialogId })).dialog;
    expect(head.eventCount).toBe(5);
    expect(head.lastEvent).toEqual({ __typename: "AiEvent", seq: 10, content: "Why did the chicken cross the road?" });
    // b is the head: naming it reads the same context.
    expect((await executeOk(OVERVIEW, { id: root.dialogId, r: branchB.id })).dialog).toEqual(head);

    const a = (await executeOk(OVERVIEW, { id: root.dialogId, r: branchA.id, types: ["HUMAN"] })).dialog;
    expect(a.eventCount).toBe(2);
    expect(a.lastEvent).toMatchObject({ __typename: "HumanEvent", seq: 4 });
    expect(a.history.edges.map((e: any) => e.node.__typename)).toEqual(["HumanEvent", "HumanEvent"]);

    const toolSteps = (
      await executeOk(OVERVIEW, { id: root.dialogId, r: branchA.id, types: ["TOOL_CALL", "TOOL_RESULT"] })
    ).dialog;
    expect(toolSteps.history.edges.map((e: any) => e.node.__typename)).toEqual(["ToolCallEvent", "ToolResultEvent"]);
    expect(toolSteps.eventCount).toBe(2);
  });

  it("renders a transcript of a branch with numbered, shortened lines", async () => {
    const { dialog } = await executeOk(OVERVIEW, { id: root.dialogId, r: branchA.id, max: 30 });
    expect(dialog.transcript).toBe(
      [
        "History (8 events):",
        "  1. [system] Be brief.",
        "  2. [user] Tell me a joke",
        "  3. [assistant] Knock knock",
        "  4. [user] Who's there? Explain the whole...",
        "  5. [reasoning] They want the long version.",
        '  6. [tool call] joke_db({"id":7})',
        "  7. [tool result] joke_db: Lettuce. Lettuce who?...",
        "  8. [assistant] Lettuce in, it's cold out here...",
      ].join("\n"),
    );
    const bad = await execute(`query($id: ID!) { dialog(id: $id) { transcript(maxContentLength: 0) } }`, {
      id: root.dialogId,
    });
    expect(bad.errors?.[0]).toMatchObject({ extensions: { code: "VALIDATION_ERROR" } });
  });

  it("keeps per-event metadata and a client's createdAt, and leaves them out of OpenAI exports", async () => {
    const { dialog } = await executeOk(
      `query($id: ID!) { dialog(id: $id) { history(types: [HUMAN], first: 1) { edges { node { ... on HumanEvent { metadata createdAt } } } } } }`,
      { id: root.dialogId },
    );
    expect(dialog.history.edges[0].node).toEqual({ metadata: { lang: "en" }, createdAt: askedAt });
    expect((await dialogMessages(root.dialogId, "OPENAI_CHAT"))[1]).toEqual({
      role: "user",
      content: "Tell me a joke",
    });
  });

  it("an empty dialog counts 0, has no last event and an empty transcript", async () => {
    const { createDialog } = await executeOk(`mutation { createDialog(input: {}) { ... on Dialog { id } } }`);
    const { dialog } = await executeOk(OVERVIEW, { id: createDialog.id });
    expect(dialog).toMatchObject({ eventCount: 0, lastEvent: null, transcript: "History (0 events)" });
  });
});

const FORK = /* GraphQL */ `
  mutation ($input: ForkDialogInput!) {
    forkDialog(input: $input) {
      __typename
      ... on Dialog {
        id
        title
        lastSeq
        forkedFrom {
          id
        }
        head {
          id
          depth
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`;

describe("forkDialog", () => {
  it("copies the context of a response into a new dialog with new ids, seqs 1..n and forkedFrom", async () => {
    const originalBefore = await historyOf(root.dialogId);
    const { forkDialog: fork } = await executeOk(FORK, { input: { responseId: branchA.id, title: "Joke, take two" } });
    expect(fork).toMatchObject({
      __typename: "Dialog",
      title: "Joke, take two",
      lastSeq: 8,
      forkedFrom: { id: branchA.id },
    });
    expect(fork.head.depth).toBe(1);

    const copy = await historyOf(fork.id);
    const originalA = (await executeOk(OVERVIEW, { id: root.dialogId, r: branchA.id })).dialog;
    expect(copy.map((e: any) => e.__typename)).toEqual(originalA.history.edges.map((e: any) => e.node.__typename));
    expect(copy.map((e: any) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Same content, timestamps, metadata and response fields; nothing shared by id.
    const strip = ({ id: _id, seq: _seq, response: { id: _rid, ...response }, ...event }: any) => ({
      ...event,
      response,
    });
    const originalEvents = (await historyOf(root.dialogId)).filter((e: any) => e.seq <= 3);
    expect(copy.slice(0, 3).map(strip)).toEqual(originalEvents.map(strip));
    expect(copy[1]).toMatchObject({ createdAt: askedAt, metadata: { lang: "en" } });
    expect(copy[0].response).toMatchObject({
      model: "gpt-4o",
      metadata: { run: 1 },
      usage: { inputTokens: 12, outputTokens: 3 },
    });
    const originalIds = new Set(originalBefore.flatMap((e: any) => [e.id, e.response.id]));
    expect(copy.some((e: any) => originalIds.has(e.id) || originalIds.has(e.response.id))).toBe(false);

    // The copy lives on its own: continuing it leaves the original untouched.
    const onFork = await createResponse({ dialogId: fork.id, input: [{ human: { content: "Only in the fork" } }] });
    expect(onFork).toMatchObject({ depth: 2, previousResponse: { id: fork.head.id } });
    expect(await historyOf(root.dialogId)).toEqual(originalBefore);
    expect((await historyOf(fork.id)).at(-1)).toMatchObject({ seq: 9, content: "Only in the fork" });
  });

  it("keeps the original title by default, and copies in the same few statements at any depth", async () => {
    const chainOf = async (depth: number) => {
      let last = await turn({ input: [{ human: { content: "0" } }], output: [{ ai: { content: "0" } }] });
      for (let i = 1; i < depth; i++) {
        last = await turn({
          previousResponseId: last.id,
          input: [{ human: { content: `${i}` } }],
          output: [{ ai: { content: `${i}` } }],
        });
      }
      await executeOk(`mutation($id: ID!) { updateDialog(input: {id: $id, title: "Deep"}) { __typename } }`, {
        id: last.dialogId,
      });
      return last;
    };
    const fork = (responseId: string) => countStatements(() => executeOk(FORK, { input: { responseId } }));
    const shallow = await fork((await chainOf(2)).id);
    const deep = await fork((await chainOf(40)).id);
    expect(deep.result.forkDialog).toMatchObject({ title: "Deep", lastSeq: 80 });
    expect(deep.statements.length).toBe(shallow.statements.length);
    expect(deep.statements.filter((sql) => /^\s*INSERT/i.test(sql)).length).toBeLessThanOrEqual(3);
  });

  it("an unknown response is a NotFoundError and stores nothing", async () => {
    const before = await rowCounts();
    const { forkDialog: result } = await executeOk(FORK, { input: { responseId: "resp_MISSING" } });
    expect(result).toMatchObject({ __typename: "NotFoundError", code: "NOT_FOUND" });
    expect(result.message).toMatch(/^Response resp_MISSING not found/);
    expect(await rowCounts()).toEqual(before);
  });
});

const CLEAR = /* GraphQL */ `
  mutation ($id: ID!) {
    clearDialog(input: { id: $id }) {
      __typename
      ... on Dialog {
        id
        lastSeq
        updatedAt
        head {
          id
        }
        eventCount
        history {
          totalMessages
        }
        branches {
          id
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`;

describe("clearDialog", () => {
  it("removes every response and event, keeps the dialog and its lastSeq, and the next event continues after it", async () => {
    const first = await turn({ input: [{ human: { content: "one" } }], output: [{ ai: { content: "1" } }] });
    const second = await turn({ dialogId: first.dialogId, input: [{ human: { content: "two" } }] });
    const { forkDialog: fork } = await executeOk(FORK, { input: { responseId: second.id } });
    const before = await prisma.dialog.findUniqueOrThrow({ where: { id: first.dialogId } });

    const { clearDialog: cleared } = await executeOk(CLEAR, { id: first.dialogId });
    expect(cleared).toMatchObject({
      __typename: "Dialog",
      id: first.dialogId,
      lastSeq: 3,
      head: null,
      eventCount: 0,
      history: { totalMessages: 0 },
      branches: [],
    });
    expect(new Date(cleared.updatedAt).getTime()).toBeGreaterThan(before.updatedAt.getTime());
    expect(await prisma.response.count({ where: { dialogId: first.dialogId } })).toBe(0);
    expect(await prisma.event.count({ where: { dialogId: first.dialogId } })).toBe(0);

    // Seqs are never reused: a live client that saw seq 3 will not be shown another event 3.
    const fresh = await createResponse({ dialogId: first.dialogId, input: [{ human: { content: "fresh start" } }] });
    // …as a new root: nothing left to chain to.
    expect(fresh).toMatchObject({ depth: 0, previousResponse: null });
    const { dialog } = await executeOk(
      `query($id: ID!) { dialog(id: $id) { lastSeq history { edges { node { ... on HumanEvent { seq content } } } } } }`,
      { id: first.dialogId },
    );
    expect(dialog.history.edges.map((e: any) => e.node)).toEqual([{ seq: 4, content: "fresh start" }]);
    expect(fresh.dialog.id).toBe(first.dialogId);

    // A fork keeps its copy; its provenance is gone with the response it pointed at.
    const forked = await executeOk(`query($id: ID!) { dialog(id: $id) { forkedFrom { id } eventCount } }`, {
      id: fork.id,
    });
    expect(forked.dialog).toEqual({ forkedFrom: null, eventCount: 3 });
  });

  it("an unknown dialog is a NotFoundError", async () => {
    const { clearDialog: result } = await executeOk(CLEAR, { id: "01JNOSUCH" });
    expect(result).toEqual({ __typename: "NotFoundError", code: "NOT_FOUND", message: "Dialog 01JNOSUCH not found" });
  });
});
