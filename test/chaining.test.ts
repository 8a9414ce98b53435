// Chaining and branching (seed 002): context = previous input + previous output + new input,
// and branches never see each other.
import { describe, expect, it } from "vitest";
import { executeOk } from "./support/graphql.js";
import { createResponse, turn } from "./support/dialogs.js";

const contents = (history: any) => history.edges.map((e: any) => e.node.content);

const READ_DIALOG = /* GraphQL */ `
  query ($id: ID!) {
    dialog(id: $id) {
      head {
        id
      }
      branches {
        id
      }
      responses(first: 50) {
        edges {
          node {
            id
            depth
            previousResponse {
              id
            }
            children {
              id
            }
          }
        }
      }
      history {
        edges {
          node {
            ... on HumanEvent {
              content
            }
            ... on AiEvent {
              content
            }
          }
        }
      }
    }
  }
`;

const CONTEXT = /* GraphQL */ `
  query ($id: ID!) {
    response(id: $id) {
      context {
        totalMessages
        edges {
          node {
            ... on HumanEvent {
              content
            }
            ... on AiEvent {
              content
            }
          }
        }
      }
      input {
        __typename
        ... on HumanEvent {
          content
        }
      }
      output {
        __typename
        ... on AiEvent {
          content
        }
      }
    }
  }
`;

describe("chaining responses", () => {
  it("continues a conversation from previousResponseId without replaying it", async () => {
    const first = await turn({
      input: [{ human: { content: "My favourite language is Elixir." } }],
      output: [{ ai: { content: "Noted." } }],
    });
    const second = await turn({
      previousResponseId: first.id,
      input: [{ human: { content: "What is my favourite language?" } }],
    });
    expect(second.dialogId).toBe(first.dialogId);
    expect(second.status).toBe("IN_PROGRESS");

    const { response } = await executeOk(CONTEXT, { id: second.id });
    expect(contents(response.context)).toEqual([
      "My favourite language is Elixir.",
      "Noted.",
      "What is my favourite language?",
    ]);
    expect(response.input).toEqual([{ __typename: "HumanEvent", content: "What is my favourite language?" }]);
    expect(response.output).toEqual([]);
  });

  it("chains to the dialog's head when only dialogId is given, and starts a dialog when neither is", async () => {
    const first = await turn({ input: [{ human: { content: "one" } }], output: [{ ai: { content: "1" } }] });
    const second = await turn({
      dialogId: first.dialogId,
      input: [{ human: { content: "two" } }],
      output: [{ ai: { content: "2" } }],
    });
    const other = await turn({ input: [{ human: { content: "elsewhere" } }] });
    expect(other.dialogId).not.toBe(first.dialogId);

    const { dialog } = await executeOk(READ_DIALOG, { id: first.dialogId });
    expect(dialog.head.id).toBe(second.id);
    expect(contents(dialog.history)).toEqual(["one", "1", "two", "2"]);
    const nodes = dialog.responses.edges.map((e: any) => e.node);
    expect(nodes).toEqual([
      { id: first.id, depth: 0, previousResponse: null, children: [{ id: second.id }] },
      { id: second.id, depth: 1, previousResponse: { id: first.id }, children: [] },
    ]);
  });

  it("branches: siblings see only their own ancestors, the head moves to the newest, branches lists both leaves", async () => {
    const root = await turn({
      input: [{ human: { content: "Tell me a joke" } }],
      output: [{ ai: { content: "Knock knock" } }],
    });
    const a = await turn({
      previousResponseId: root.id,
      input: [{ human: { content: "Who's there? (A)" } }],
      output: [{ ai: { content: "Lettuce" } }],
    });
    const a2 = await turn({
      previousResponseId: a.id,
      input: [{ human: { content: "Lettuce who?" } }],
      output: [{ ai: { content: "Lettuce in!" } }],
    });
    const b = await turn({
      previousResponseId: root.id,
      input: [{ human: { content: "Another one (B)" } }],
      output: [{ ai: { content: "Why did the chicken…" } }],
    });

    const contextA = (await executeOk(CONTEXT, { id: a2.id })).response.context;
    expect(contents(contextA)).toEqual([
      "Tell me a joke",
      "Knock knock",
      "Who's there? (A)",
      "Lettuce",
      "Lettuce who?",
      "Lettuce in!",
    ]);
    const contextB = (await executeOk(CONTEXT, { id: b.id })).response.context;
    expect(contents(contextB)).toEqual(["Tell me a joke", "Knock knock", "Another one (B)", "Why did the chicken…"]);
    expect(contextB.totalMessages).toBe(4);

    const { dialog } = await executeOk(READ_DIALOG, { id: root.dialogId });
    expect(dialog.head.id).toBe(b.id);
    expect(dialog.branches.map((r: any) => r.id)).toEqual([a2.id, b.id]);
    expect(contents(dialog.history)).toEqual(contents(contextB));
    const rootNode = dialog.responses.edges[0].node;
    expect(rootNode.children.map((c: any) => c.id)).toEqual([a.id, b.id]);

    // Continuing the dialog now continues branch B, one level below it.
    const next = await createResponse({ dialogId: root.dialogId, input: [{ human: { content: "Why?" } }] });
    expect(next).toMatchObject({ depth: 2, previousResponse: { id: b.id } });

    // History of another branch through Dialog.history(responseId:).
    const other = await executeOk(
      `query($id: ID!, $r: ID) { dialog(id: $id) { history(responseId: $r) { edges { node { ... on AiEvent { content } ... on HumanEvent { content } } } } } }`,
      { id: root.dialogId, r: a.id },
    );
    expect(contents(other.dialog.history)).toEqual(["Tell me a joke", "Knock knock", "Who's there? (A)", "Lettuce"]);
  });

  it("lists dialogs newest first with Relay cursors", async () => {
    const older = await turn({ input: [{ human: { content: "older" } }] });
    const newer = await turn({ input: [{ human: { content: "newer" } }] });
    const page1 = await executeOk(
      `{ dialogs(first: 1) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(page1.dialogs.edges[0].node.id).toBe(newer.dialogId);
    expect(page1.dialogs.pageInfo.hasNextPage).toBe(true);
    const page2 = await executeOk(
      `query($after: String) { dialogs(first: 1, after: $after) { edges { node { id } } } }`,
      {
        after: page1.dialogs.pageInfo.endCursor,
      },
    );
    expect(page2.dialogs.edges[0].node.id).toBe(older.dialogId);
  });
});

describe("event fields", () => {
  it("keeps a client-supplied createdAt and metadata on each event", async () => {
    const at = "2024-02-29T23:59:58.123Z";
    const { id } = await turn({
      input: [{ human: { content: "Leap day", createdAt: at, metadata: { source: "import", lang: "en" } } }],
      output: [{ ai: { content: "Indeed" } }],
    });
    const { response } = await executeOk(
      `query($id: ID!) { response(id: $id) { createdAt input { ... on BaseHistoryEvent { createdAt metadata } } output { ... on BaseHistoryEvent { createdAt metadata } } } }`,
      { id },
    );
    expect(response.input).toEqual([{ createdAt: at, metadata: { source: "import", lang: "en" } }]);
    // Without one, an event is stamped with the write's time, like its response.
    expect(response.output).toEqual([{ createdAt: response.createdAt, metadata: {} }]);
  });
});

describe("dialog mutations", () => {
  it("creates, updates and deletes a dialog with everything in it", async () => {
    const created = await executeOk(
      `mutation { createDialog(input: {title: "Trip", metadata: {owner: "ana"}}) { __typename ... on Dialog { id title metadata head { id } } } }`,
    );
    const id = created.createDialog.id;
    expect(created.createDialog).toEqual({
      __typename: "Dialog",
      id,
      title: "Trip",
      metadata: { owner: "ana" },
      head: null,
    });
    const empty = await executeOk(
      `query($id: ID!) { dialog(id: $id) { history { totalMessages edges { cursor } } } }`,
      { id },
    );
    expect(empty.dialog.history).toEqual({ totalMessages: 0, edges: [] });

    const first = await turn({ dialogId: id, input: [{ human: { content: "Where to?" } }] });
    expect(first.dialogId).toBe(id);

    const updated = await executeOk(
      `mutation($id: ID!) { updateDialog(input: {id: $id, title: "Trip to Lisbon"}) { ... on Dialog { title metadata } } }`,
      { id },
    );
    expect(updated.updateDialog).toEqual({ title: "Trip to Lisbon", metadata: { owner: "ana" } });

    const deleted = await executeOk(
      `mutation($id: ID!) { deleteDialog(input: {id: $id}) { __typename ... on DeleteDialogPayload { id } } }`,
      { id },
    );
    expect(deleted.deleteDialog).toEqual({ __typename: "DeleteDialogPayload", id });
    const { prisma } = await import("./support/database.js");
    expect(await prisma.dialog.count({ where: { id } })).toBe(0);
    expect(await prisma.response.count({ where: { dialogId: id } })).toBe(0);
    expect(await prisma.event.count({ where: { dialogId: id } })).toBe(0);
  });
});
