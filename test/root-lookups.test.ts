// dialog(id:) and response(id:) read the row at the driver when the selection needs only its own
// columns: the same values Prisma returns, one statement, and still no way into another tenant.
import { beforeAll, describe, expect, it } from "vitest";
import { executeOk } from "./support/graphql.js";
import { countStatements } from "./support/query-counter.js";
import { graphql } from "../src/client/generated/index.js";

graphql(`
  fragment ResponseOwnColumns on Response {
    id
    depth
    model
    status
    metadata
    error
    createdAt
    completedAt
    usage {
      inputTokens
      totalTokens
    }
  }
`);

graphql(`
  fragment DialogOwnColumns on Dialog {
    id
    title
    metadata
    createdAt
    updatedAt
  }
`);

const RESPONSE_OWN_COLUMNS = graphql(`
  query ResponseOwnColumns($id: ID!) {
    response(id: $id) {
      ...ResponseOwnColumns
    }
  }
`);

const RESPONSE_WITH_DIALOG = graphql(`
  query ResponseOwnColumnsAndDialog($id: ID!) {
    response(id: $id) {
      ...ResponseOwnColumns
      dialog {
        id
      }
    }
  }
`);

const DIALOG_OWN_COLUMNS = graphql(`
  query DialogOwnColumns($id: ID!) {
    dialog(id: $id) {
      ...DialogOwnColumns
    }
  }
`);

const DIALOG_WITH_HEAD = graphql(`
  query DialogOwnColumnsAndHead($id: ID!) {
    dialog(id: $id) {
      ...DialogOwnColumns
      head {
        id
      }
    }
  }
`);

let responseId: string;
let dialogId: string;

const CREATE_RESPONSE = graphql(`
  mutation RootLookupsCreateResponse($input: CreateResponseInput!) {
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

beforeAll(async () => {
  const created = await executeOk(CREATE_RESPONSE, {
    input: {
      input: [{ human: { content: "Hi" } }],
      output: [{ ai: { content: "Hello" } }],
      model: "m",
      metadata: { a: [1, 2], b: { c: null } },
      usage: { inputTokens: 3, totalTokens: 5 },
    },
  });
  responseId = created.createResponse.id;
  dialogId = created.createResponse.dialog.id;
});

describe("root lookups", () => {
  it("read a response's own columns in one statement, equal to Prisma's read", async () => {
    const { result, statements } = await countStatements(() => executeOk(RESPONSE_OWN_COLUMNS, { id: responseId }));
    expect(statements).toHaveLength(1);
    // Selecting a relation makes Pothos ask Prisma to include it: the read goes through Prisma.
    const throughPrisma = await executeOk(RESPONSE_WITH_DIALOG, { id: responseId });
    const { dialog, ...ownColumns } = throughPrisma.response!;
    expect(dialog.id).toBe(dialogId);
    expect(result.response).toEqual(ownColumns);
  });

  it("read a dialog's own columns in one statement, equal to Prisma's read", async () => {
    const { result, statements } = await countStatements(() => executeOk(DIALOG_OWN_COLUMNS, { id: dialogId }));
    expect(statements).toHaveLength(1);
    const throughPrisma = await executeOk(DIALOG_WITH_HEAD, { id: dialogId });
    const { head, ...ownColumns } = throughPrisma.dialog!;
    expect(head!.id).toBe(responseId);
    expect(result.dialog).toEqual(ownColumns);
  });
});
