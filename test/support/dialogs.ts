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

const WRITE_RESULT = /* GraphQL */ `
  __typename
  ... on Response { id status dialog { id } }
  ... on Error { message code }
  ... on ValidationError { fieldErrors { path message } }
`;

type Run = (query: string, variables?: Record<string, unknown>) => Promise<any>;

/**
 * The write mutations as a client sends them, through `run` (by default the in-memory app; pass
 * a real server's HTTP executor when subscribers listen on that server).
 */
export function writer(run: Run = executeOk) {
  const mutation = (name: string, inputType: string) => async (input: Record<string, unknown>) =>
    (await run(`mutation($input: ${inputType}!) { ${name}(input: $input) { ${WRITE_RESULT} } }`, { input }))[name];
  return {
    createResponse: mutation("createResponse", "CreateResponseInput"),
    appendEvents: mutation("appendEvents", "AppendEventsInput"),
    completeResponse: mutation("completeResponse", "CompleteResponseInput"),
    interruptResponse: mutation("interruptResponse", "InterruptResponseInput"),
  };
}
