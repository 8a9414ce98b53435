// Story-level helpers: write turns the way a client would, through GraphQL.
import { graphql } from "../../src/client/generated/index.js";
import type { CreateResponseInput } from "../../src/client/generated/graphql.js";
import { prisma } from "./database.js";
import type { App } from "../../src/server/app.js";
import { app, executeOk } from "./graphql.js";

export const CREATE_RESPONSE = graphql(`
  mutation WriteTurn($input: CreateResponseInput!) {
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
`);

/**
 * The typed result, loosened for assertions: tests read fields of whichever member came back.
 * (Bad-input tests pass deliberately malformed input, hence `Record<string, unknown>` too.)
 */
export async function createResponse(
  input: CreateResponseInput | Record<string, unknown>,
  on: App = app,
): Promise<any> {
  const data = await executeOk(CREATE_RESPONSE, { input: input as CreateResponseInput }, on);
  return data.createResponse;
}

/** Creates a response and fails unless it was stored. */
export async function turn(
  input: CreateResponseInput,
  on: App = app,
): Promise<{ id: string; dialogId: string; status: string }> {
  const data = await executeOk(CREATE_RESPONSE, { input }, on);
  const result = data.createResponse;
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
      ... on ToolResultEvent { callId toolName content isError }
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
