// Branches as first-class: where two branches part, and what each holds after that point, with
// its own usage — "what did the model do differently from here?" in one query.
import { beforeAll, describe, expect, it } from "vitest";
import { turn } from "./support/dialogs.js";
import { execute, executeOk } from "./support/graphql.js";
import { graphql } from "../src/client/generated/index.js";

// root ─ shared ─┬─ a1 ─ a2
//                └─ b1
let root: string;
let shared: string;
let a1: string;
let a2: string;
let b1: string;

beforeAll(async () => {
  const first = await turn({
    model: "m",
    input: [{ human: { content: "Plan a trip" } }],
    output: [{ ai: { content: "Where to?" } }],
  });
  root = first.id;
  shared = (
    await turn({
      previousResponseId: root,
      model: "m",
      input: [{ human: { content: "Lisbon" } }],
      output: [{ ai: { content: "Nice." } }],
    })
  ).id;
  a1 = (
    await turn({
      previousResponseId: shared,
      model: "gpt-a",
      input: [{ human: { content: "By train" } }],
      output: [
        { toolCall: { callId: "t1", toolName: "trains", args: { to: "Lisbon" } } },
        { toolResult: { callId: "t1", toolName: "trains", content: "08:15" } },
      ],
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    })
  ).id;
  a2 = (
    await turn({
      previousResponseId: a1,
      model: "gpt-a",
      input: [{ human: { content: "Book it" } }],
      output: [{ ai: { content: "Booked." } }],
      usage: { inputTokens: 20, outputTokens: 2, reasoningTokens: 1, totalTokens: 22 },
    })
  ).id;
  b1 = (
    await turn({
      previousResponseId: shared,
      model: "gpt-b",
      input: [{ human: { content: "By plane" } }],
      output: [{ ai: { content: "Flights at 9." } }],
      usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
    })
  ).id;
});

const RESPONSE_COMMON_ANCESTOR = graphql(`
  query BranchesResponseCommonAncestor($id: ID!, $w: ID!) {
    response(id: $id) {
      commonAncestor(with: $w) {
        id
      }
    }
  }
`);

const ancestor = async (of: string, other: string) =>
  (
    await executeOk(RESPONSE_COMMON_ANCESTOR, {
      id: of,
      w: other,
    })
  ).response!.commonAncestor?.id ?? null;

const RESPONSE_COMMON_ANCESTOR2 = graphql(`
  query BranchesResponseCommonAncestor2($id: ID!) {
    response(id: $id) {
      commonAncestor(with: "resp_nope") {
        id
      }
    }
  }
`);

describe("Response.commonAncestor", () => {
  it("is the response where two branches part, whichever side asks", async () => {
    expect(await ancestor(a2, b1)).toBe(shared);
    expect(await ancestor(b1, a2)).toBe(shared);
    expect(await ancestor(a1, b1)).toBe(shared);
  });

  it("is the earlier response itself when one continues the other", async () => {
    expect(await ancestor(a2, a1)).toBe(a1);
    expect(await ancestor(root, a2)).toBe(root);
    expect(await ancestor(b1, b1)).toBe(b1);
  });

  it("is null for a response of another dialog, and an unknown id is NOT_FOUND", async () => {
    const elsewhere = await turn({ input: [{ human: { content: "other" } }] });
    expect(await ancestor(a2, elsewhere.id)).toBeNull();
    const unknown = await execute(RESPONSE_COMMON_ANCESTOR2, { id: a2 });
    expect(unknown.errors?.[0]).toMatchObject({
      message: "Response resp_nope not found",
      extensions: { code: "NOT_FOUND" },
    });
  });
});

const COMPARE = graphql(`
  query BranchesCompareBranchesCommonAncestor($a: ID!, $b: ID!) {
    compareBranches(a: $a, b: $b) {
      commonAncestor {
        id
      }
      shared {
        totalMessages
        edges {
          node {
            ... on BaseHistoryEvent {
              seq
              type
            }
          }
        }
      }
      a {
        tip {
          id
        }
        responses {
          id
        }
        preview
        eventCount
        usage {
          inputTokens
          outputTokens
          reasoningTokens
          totalTokens
        }
        events {
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
          ... on ToolCallEvent {
            toolName
          }
          ... on ToolResultEvent {
            content
          }
        }
      }
      b {
        tip {
          id
        }
        responses {
          id
        }
        eventCount
        usage {
          inputTokens
          outputTokens
          reasoningTokens
          totalTokens
        }
        events {
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
      }
    }
  }
`);

describe("compareBranches", () => {
  it("gives the shared prefix, then each side's events after the fork with that side's usage", async () => {
    const { compareBranches: c } = await executeOk(COMPARE, { a: a2, b: b1 });
    expect(c.commonAncestor).toEqual({ id: shared });
    expect(c.shared.totalMessages).toBe(4);
    expect(c.shared.edges.map((e) => e.node.type)).toEqual(["HUMAN", "AI", "HUMAN", "AI"]);
    expect(c.a).toEqual({
      tip: { id: a2 },
      preview: "By train",
      responses: [{ id: a1 }, { id: a2 }],
      eventCount: 5,
      usage: { inputTokens: 30, outputTokens: 7, reasoningTokens: 1, totalTokens: 37 },
      events: [
        { __typename: "HumanEvent", seq: 5, content: "By train" },
        { __typename: "ToolCallEvent", seq: 6, toolName: "trains" },
        { __typename: "ToolResultEvent", seq: 7, content: "08:15" },
        { __typename: "HumanEvent", seq: 8, content: "Book it" },
        { __typename: "AiEvent", seq: 9, content: "Booked." },
      ],
    });
    expect(c.b).toEqual({
      tip: { id: b1 },
      responses: [{ id: b1 }],
      eventCount: 2,
      usage: { inputTokens: 7, outputTokens: 3, reasoningTokens: 0, totalTokens: 10 },
      events: [
        { __typename: "HumanEvent", seq: 10, content: "By plane" },
        { __typename: "AiEvent", seq: 11, content: "Flights at 9." },
      ],
    });
  });

  it("compares a branch with its own continuation: one side is empty", async () => {
    const { compareBranches: c } = await executeOk(COMPARE, { a: a1, b: a2 });
    expect(c.commonAncestor).toEqual({ id: a1 });
    expect(c.a).toMatchObject({ responses: [], events: [], eventCount: 0 });
    expect(c.b.events.map((e) => e.seq)).toEqual([8, 9]);
  });

  it("refuses responses of two dialogs and unknown ids with typed errors", async () => {
    const elsewhere = await turn({ input: [{ human: { content: "other" } }] });
    const apart = await execute(COMPARE, { a: a2, b: elsewhere.id });
    expect(apart.errors?.[0]?.extensions?.code).toBe("VALIDATION_ERROR");
    const unknown = await execute(COMPARE, { a: "resp_missing", b: b1 });
    expect(unknown.errors?.[0]).toMatchObject({
      message: "Response resp_missing not found",
      extensions: { code: "NOT_FOUND" },
    });
  });
});
