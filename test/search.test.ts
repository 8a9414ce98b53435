// Finding a conversation: search over events' text, tool names and arguments, ranked, with
// highlighted snippets and where each hit sits; the dialog list filtered and counted; each
// tenant finding only its own.
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server/http-server.js";
import { turn } from "./support/dialogs.js";
import { execute, executeOk } from "./support/graphql.js";
import { startTestServer } from "./support/live.js";
import { asCaller, tenantKey } from "./support/tenants.js";
import type { ResultOf } from "@graphql-typed-document-node/core";
import { graphql } from "../src/client/generated/index.js";

// A word no other test writes, so hits are this file's alone whatever shares the database.
const WORD = `zebrafish${Date.now().toString(36)}`;

const SEARCH = graphql(`
  query SearchHits($q: String!, $filter: SearchFilter, $first: Int, $after: String) {
    search(query: $q, filter: $filter, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        cursor
        node {
          dialogId
          responseId
          seq
          rank
          snippet
          snippetParts {
            text
            match
          }
          dialog {
            id
            title
          }
          response {
            id
            model
          }
          event {
            __typename
            ... on BaseHistoryEvent {
              id
              seq
              type
            }
            ... on ToolResultEvent {
              content
            }
            ... on ToolCallEvent {
              toolName
              args
            }
          }
        }
      }
    }
  }
`);

let weather: { dialogId: string; responseId: string };
let other: { dialogId: string };

const UPDATE_DIALOG = graphql(`
  mutation SearchUpdateDialog($id: ID!) {
    updateDialog(input: { id: $id, metadata: { project: "meteo" } }) {
      __typename
    }
  }
`);

beforeAll(async () => {
  const first = await turn({
    model: "gpt-4o",
    input: [{ human: { content: "Why does weather.py fail?" } }],
    output: [
      { toolCall: { callId: "c1", toolName: "run_tests", args: { file: "weather.py", marker: WORD } } },
      {
        toolResult: {
          callId: "c1",
          toolName: "run_tests",
          content: `Traceback: ${WORD} parser raised KeyError`,
          isError: true,
        },
      },
      { ai: { content: `The ${WORD} parser fails on ${WORD} ${WORD} data.` } },
    ],
  });
  weather = { dialogId: first.dialogId, responseId: first.id };
  await executeOk(UPDATE_DIALOG, {
    id: first.dialogId,
  });
  const second = await turn({
    model: "claude-x",
    input: [{ human: { content: `Tom & "Jerry" ask about the ${WORD} genome` } }],
    output: [{ ai: { content: "It is small." } }],
  });
  other = { dialogId: second.dialogId };
});

describe("search", () => {
  it("finds events by words in their text, tool names and arguments, best first, with marked snippets", async () => {
    const { search } = await executeOk(SEARCH, { q: WORD });
    expect(search.totalCount).toBe(4);
    const hits = search.edges.map((edge) => edge.node);
    // The AI message says the word three times: it ranks first.
    expect(hits[0]!.event.__typename).toBe("AiEvent");
    expect(hits[0]!.rank).toBeGreaterThan(hits.at(-1)!.rank);
    expect(hits.map((hit) => hit.dialogId).sort()).toEqual(
      [weather.dialogId, weather.dialogId, weather.dialogId, other.dialogId].sort(),
    );
    const toolResult = hits.find((hit) => hit.event.__typename === "ToolResultEvent");
    expect(toolResult).toMatchObject({ dialogId: weather.dialogId, responseId: weather.responseId, seq: 3 });
    expect(toolResult!.dialog.id).toBe(weather.dialogId);
    expect(toolResult!.response).toEqual({ id: weather.responseId, model: "gpt-4o" });
    // The document is the text, then the tool name, then the arguments.
    expect(toolResult!.snippet).toBe(`Traceback: <mark>${WORD}</mark> parser raised KeyError run_tests`);
    expect(toolResult!.snippetParts).toEqual([
      { text: "Traceback: ", match: false },
      { text: WORD, match: true },
      { text: " parser raised KeyError run_tests", match: false },
    ]);
    // Stored text is escaped in the HTML snippet, never passed through.
    const human = hits.find((hit) => hit.event.__typename === "HumanEvent");
    expect(human!.snippet).toContain(`Jerry&quot; ask about the <mark>${WORD}</mark> genome`);
  });

  it("finds a tool call by its tool name and by a value in its arguments", async () => {
    const byName = await executeOk(SEARCH, { q: `run_tests ${WORD}`, filter: { types: ["TOOL_CALL"] } });
    expect(byName.search.edges.map((e) => e.node.event)).toEqual([
      expect.objectContaining({ __typename: "ToolCallEvent", toolName: "run_tests", seq: 2 }),
    ]);
  });

  it("narrows hits by type, model, status, dialog metadata, dialog and time", async () => {
    const count = async (filter: Record<string, unknown>) =>
      (await executeOk(SEARCH, { q: WORD, filter })).search.totalCount;
    expect(await count({ types: ["TOOL_RESULT", "HUMAN"] })).toBe(2);
    expect(await count({ models: ["claude-x"] })).toBe(1);
    expect(await count({ statuses: ["COMPLETED"] })).toBe(4);
    expect(await count({ statuses: ["FAILED"] })).toBe(0);
    expect(await count({ metadata: { project: "meteo" } })).toBe(3);
    expect(await count({ dialogId: other.dialogId })).toBe(1);
    expect(await count({ createdAfter: new Date(Date.now() + 60_000).toISOString() })).toBe(0);
    expect(await count({ createdBefore: new Date(Date.now() + 60_000).toISOString() })).toBe(4);
  });

  it("pages hits with Relay cursors, each page continuing where the last stopped", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const { search }: ResultOf<typeof SEARCH> = await executeOk(SEARCH, { q: WORD, first: 3, after });
      seen.push(...search.edges.map((e) => e.node.event.id));
      if (!search.pageInfo.hasNextPage) break;
      after = search.pageInfo.endCursor;
    }
    const all = (await executeOk(SEARCH, { q: WORD })).search.edges.map((e) => e.node.event.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(4);
  });

  it("refuses an empty query with a validation error, and treats query syntax as words", async () => {
    const empty = await execute(SEARCH, { q: "   " });
    expect(empty.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    const odd = await executeOk(SEARCH, { q: `"${WORD} -(:* & |` });
    expect(odd.search.totalCount).toBeGreaterThanOrEqual(0);
  });
});

describe("the dialog list", () => {
  const LIST = graphql(`
    query FilteredDialogList($filter: SearchFilter, $orderBy: DialogOrder, $first: Int) {
      dialogs(filter: $filter, orderBy: $orderBy, first: $first) {
        totalCount
        edges {
          node {
            id
            title
            preview
          }
        }
      }
    }
  `);

  it("filters by the same filters, counts the whole selection and previews untitled dialogs", async () => {
    const { dialogs } = await executeOk(LIST, { filter: { metadata: { project: "meteo" } } });
    expect(dialogs.totalCount).toBe(1);
    expect(dialogs.edges).toEqual([
      { node: { id: weather.dialogId, title: null, preview: "Why does weather.py fail?" } },
    ]);

    const claude = await executeOk(LIST, { filter: { models: ["claude-x"] }, first: 1 });
    expect(claude.dialogs.edges.map((e) => e.node.id)).toEqual([other.dialogId]);

    const all = await executeOk(LIST, { first: 1 });
    expect(all.dialogs.totalCount).toBeGreaterThanOrEqual(2);
    expect(all.dialogs.edges).toHaveLength(1);

    const oldest = await executeOk(LIST, { orderBy: "OLDEST", filter: { types: ["TOOL_RESULT"] }, first: 100 });
    const ids = oldest.dialogs.edges.map((e) => e.node.id);
    expect(ids).toContain(weather.dialogId);
    expect(ids).not.toContain(other.dialogId);
    expect([...ids].sort()).toEqual(ids);
  });
});

const TENANT_WRITE = graphql(`
  mutation TenantWrite($c: String!) {
    createResponse(input: { input: [{ human: { content: $c } }] }) {
      __typename
    }
  }
`);

const TENANT_SEARCH = graphql(`
  query TenantSearchSnippets($q: String!) {
    search(query: $q) {
      totalCount
      edges {
        node {
          snippet
        }
      }
    }
  }
`);

const TENANT_DIALOG_COUNT = graphql(`
  query TenantDialogCount {
    dialogs {
      totalCount
    }
  }
`);

describe("search across tenants", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });

  it("finds only the caller's own events", async () => {
    const word = `${WORD}tenant`;
    const [alpha, beta] = [
      asCaller(server, (await tenantKey("alpha")).key),
      asCaller(server, (await tenantKey("beta")).key),
    ];
    const write = TENANT_WRITE;
    await alpha(write, { c: `alpha says ${word}` });
    await beta(write, { c: `beta says ${word}` });
    const found = async (caller: typeof alpha) => (await caller(TENANT_SEARCH, { q: word })).body.data!.search;
    expect(await found(alpha)).toEqual({
      totalCount: 1,
      edges: [{ node: { snippet: `alpha says <mark>${word}</mark>` } }],
    });
    expect(await found(beta)).toEqual({
      totalCount: 1,
      edges: [{ node: { snippet: `beta says <mark>${word}</mark>` } }],
    });
    const list = await beta(TENANT_DIALOG_COUNT);
    expect(list.body.data!.dialogs.totalCount).toBe(1);
  });
});
