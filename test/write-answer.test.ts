// createResponse answers with the rows its one write statement returned: the same values a read
// returns afterwards, and no statement beyond the write unless the selection needs more.
import { beforeAll, describe, expect, it } from "vitest";
import { executeOk } from "./support/graphql.js";
import { countStatements } from "./support/query-counter.js";
import { graphql } from "../src/client/generated/index.js";
import type { CreateResponseInput } from "../src/client/generated/graphql.js";
import { member } from "./support/narrow.js";

graphql(`
  fragment WrittenResponseFields on Response {
    id
    depth
    model
    status
    metadata
    error
    createdAt
    completedAt
    expiresAt
    usage {
      inputTokens
      outputTokens
      reasoningTokens
      totalTokens
    }
    dialog {
      id
      title
      metadata
      createdAt
      updatedAt
      eventCount
    }
  }
`);

const CREATE = graphql(`
  mutation WriteAnswerCreate($input: CreateResponseInput!) {
    createResponse(input: $input) {
      __typename
      ... on Response {
        ...WrittenResponseFields
      }
      ... on Error {
        message
      }
    }
  }
`);

const READ = graphql(`
  query WriteAnswerRead($id: ID!) {
    response(id: $id) {
      ...WrittenResponseFields
    }
  }
`);

const turnInput = (extra: Record<string, unknown> = {}) => ({
  input: [{ human: { content: "What's in file.py?" } }],
  output: [{ ai: { content: "Let me look." } }],
  model: "gpt-test",
  metadata: { agent: "bench", nested: { ok: true } },
  usage: { inputTokens: 12, totalTokens: 20 },
  ...extra,
});

async function createAndRead(input: CreateResponseInput) {
  const { result, statements } = await countStatements(() => executeOk(CREATE, { input }));
  const { __typename, ...written } = member(result.createResponse, "Response");
  const read = (await executeOk(READ, { id: written.id })).response;
  return { written, read, statements };
}

const CREATE_RESPONSE = graphql(`
  mutation WriteAnswerCreateResponse($input: CreateResponseInput!) {
    createResponse(input: $input) {
      ... on Response {
        previousResponse {
          id
        }
        output {
          ... on AiEvent {
            content
          }
        }
      }
    }
  }
`);

describe("the answer to createResponse", () => {
  // The first request of a process looks up whether API keys exist; that is not the write's cost.
  beforeAll(() => executeOk("{ __typename }"));

  it("is what a read returns, for a new dialog, in one statement", async () => {
    const { written, read, statements } = await createAndRead(turnInput());
    expect(written).toEqual(read);
    expect(written.dialog.eventCount).toBe(2);
    // eventCount is counted; nothing else is read.
    expect(statements.filter((sql) => !sql.includes("WITH RECURSIVE"))).toEqual([
      expect.stringContaining("INSERT INTO"),
    ]);
  });

  it("is what a read returns when continuing a dialog, in progress or completed", async () => {
    const first = await createAndRead(turnInput());
    const next = await createAndRead({ ...turnInput(), dialogId: first.written.dialog.id });
    expect(next.written).toEqual(next.read);
    expect(next.written.depth).toBe(1);
    expect(next.written.dialog.eventCount).toBe(4);
    // eventCount is counted; nothing else is read.
    expect(next.statements.filter((sql) => !sql.includes("WITH RECURSIVE"))).toHaveLength(1);

    const open = await createAndRead({ dialogId: first.written.dialog.id, input: [{ human: { content: "Go on" } }] });
    expect(open.written).toEqual(open.read);
    expect(open.written.status).toBe("IN_PROGRESS");
    expect(open.written.completedAt).toBeNull();
  });

  it("costs the parent's lookup and the write when chaining by previousResponseId", async () => {
    const first = await createAndRead(turnInput());
    const chained = await createAndRead({ ...turnInput(), previousResponseId: first.written.id });
    expect(chained.written).toEqual(chained.read);
    expect(chained.written.depth).toBe(1);
    const writes = chained.statements.filter((sql) => !sql.includes("WITH RECURSIVE"));
    expect(writes).toEqual([
      expect.stringContaining('FROM "Response" WHERE id = $1'),
      expect.stringContaining("INSERT INTO"),
    ]);
  });

  it("reads back what the selection needs beyond the written rows", async () => {
    const first = await createAndRead(turnInput());
    const { result } = await countStatements(() =>
      executeOk(CREATE_RESPONSE, { input: { ...turnInput(), dialogId: first.written.dialog.id } }),
    );
    expect(result.createResponse).toEqual({
      previousResponse: { id: first.written.id },
      output: [{ content: "Let me look." }],
    });
  });
});
