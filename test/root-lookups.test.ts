// dialog(id:) and response(id:) read the row at the driver when the selection needs only its own
// columns: the same values Prisma returns, one statement, and still no way into another tenant.
import { beforeAll, describe, expect, it } from "vitest";
import { executeOk } from "./support/graphql.js";
import { countStatements } from "./support/query-counter.js";

const RESPONSE = `id depth model status metadata error createdAt completedAt usage { inputTokens totalTokens }`;
const DIALOG = `id title metadata createdAt updatedAt`;

let responseId: string;
let dialogId: string;

beforeAll(async () => {
  const created = await executeOk(
    `mutation($input: CreateResponseInput!) { createResponse(input: $input) { ... on Response { id dialog { id } } } }`,
    {
      input: {
        input: [{ human: { content: "Hi" } }],
        output: [{ ai: { content: "Hello" } }],
        model: "m",
        metadata: { a: [1, 2], b: { c: null } },
        usage: { inputTokens: 3, totalTokens: 5 },
      },
    },
  );
  responseId = created.createResponse.id;
  dialogId = created.createResponse.dialog.id;
});

describe("root lookups", () => {
  it("read a response's own columns in one statement, equal to Prisma's read", async () => {
    const { result, statements } = await countStatements(() =>
      executeOk(`query($id: ID!) { response(id: $id) { ${RESPONSE} } }`, { id: responseId }),
    );
    expect(statements).toHaveLength(1);
    // Selecting a relation makes Pothos ask Prisma to include it: the read goes through Prisma.
    const throughPrisma = await executeOk(`query($id: ID!) { response(id: $id) { ${RESPONSE} dialog { id } } }`, {
      id: responseId,
    });
    const { dialog, ...ownColumns } = throughPrisma.response;
    expect(dialog.id).toBe(dialogId);
    expect(result.response).toEqual(ownColumns);
  });

  it("read a dialog's own columns in one statement, equal to Prisma's read", async () => {
    const { result, statements } = await countStatements(() =>
      executeOk(`query($id: ID!) { dialog(id: $id) { ${DIALOG} } }`, { id: dialogId }),
    );
    expect(statements).toHaveLength(1);
    const throughPrisma = await executeOk(`query($id: ID!) { dialog(id: $id) { ${DIALOG} head { id } } }`, {
      id: dialogId,
    });
    const { head, ...ownColumns } = throughPrisma.dialog;
    expect(head.id).toBe(responseId);
    expect(result.dialog).toEqual(ownColumns);
  });
});
