// Story-level helpers: write turns the way a client would, through GraphQL.
import { prisma } from "../../src/db/prisma.js";
import { executeOk } from "./graphql.js";

export const CREATE_RESPONSE = /* GraphQL */ `
  mutation CreateResponse($input: CreateResponseInput!) {
    createResponse(input: $input) {
      __typename
      ... on Response {
        id
        status
        depth
        dialog {
          id
        }
        previousResponse {
          id
        }
      }
      ... on Error {
        message
        code
      }
      ... on ValidationError {
        fieldErrors {
          path
          message
        }
      }
    }
  }
`;

export async function createResponse(input: Record<string, unknown>) {
  const data = await executeOk(CREATE_RESPONSE, { input });
  return data.createResponse;
}

/** Creates a response and fails unless it was stored. */
export async function turn(input: Record<string, unknown>): Promise<{ id: string; dialogId: string; status: string }> {
  const result = await createResponse(input);
  if (result.__typename !== "Response") throw new Error(`createResponse failed: ${JSON.stringify(result)}`);
  return { id: result.id, dialogId: result.dialog.id, status: result.status };
}

export async function rowCounts() {
  const [dialogs, responses, events] = await Promise.all([
    prisma.dialog.count(),
    prisma.response.count(),
    prisma.event.count(),
  ]);
  return { dialogs, responses, events };
}

export const HISTORY_FIELDS = /* GraphQL */ `
  totalMessages totalReasoning totalToolCalls
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  edges {
    cursor
    node {
      __typename
      ... on BaseHistoryEvent { id seq type }
      ... on HumanEvent { content }
      ... on AiEvent { content }
      ... on SystemEvent { content }
      ... on ReasoningEvent { content modelName }
      ... on ToolCallEvent { callId toolName args }
      ... on ToolResultEvent { callId content isError }
    }
  }
`;

/** Every event of a dialog's head context with the fields a copy must keep. */
export async function historyOf(dialogId: string) {
  const { dialog } = await executeOk(
    `query($id: ID!) { dialog(id: $id) { history(first: 100) { edges { node { __typename
      ... on BaseHistoryEvent { id seq createdAt metadata response { id model status metadata usage { inputTokens outputTokens } } }
      ... on HumanEvent { content } ... on AiEvent { content } ... on SystemEvent { content } ... on ReasoningEvent { content }
      ... on ToolCallEvent { callId toolName args } ... on ToolResultEvent { callId content } } } } } }`,
    { id: dialogId },
  );
  return dialog.history.edges.map((e: any) => e.node);
}
