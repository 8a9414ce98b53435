// Story-level helpers: write turns the way a client would, through GraphQL.
import type { ResultOf, TypedDocumentNode } from "@graphql-typed-document-node/core";
import { graphql } from "../../src/client/generated/index.js";
import type {
  AppendEventsInput,
  CompleteResponseInput,
  CreateResponseInput,
  InterruptResponseInput,
} from "../../src/client/generated/graphql.js";
import type { App } from "../../src/server/app.js";
import { prisma } from "./database.js";
import { app, executeOk } from "./graphql.js";
import { member } from "./narrow.js";

export { member, withField } from "./narrow.js";

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

export type CreateResponseResult = ResultOf<typeof CREATE_RESPONSE>["createResponse"];

/** The typed result, whichever member came back. (Bad-input tests pass deliberately malformed input.) */
export async function createResponse(
  input: CreateResponseInput | Record<string, unknown>,
  on: App = app,
): Promise<CreateResponseResult> {
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

/** A page of history with every event type's own fields (spread `...HistoryPageFields`). */
export const HISTORY_PAGE_FIELDS = graphql(`
  fragment HistoryPageFields on HistoryConnection {
    totalMessages
    totalReasoning
    totalToolCalls
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
    edges {
      cursor
      node {
        __typename
        ... on BaseHistoryEvent {
          id
          seq
          type
        }
        ... on HumanEvent {
          content
        }
        ... on AiEvent {
          content
        }
        ... on SystemEvent {
          content
        }
        ... on ReasoningEvent {
          content
          modelName
        }
        ... on ToolCallEvent {
          callId
          toolName
          args
        }
        ... on ToolResultEvent {
          callId
          toolName
          content
          isError
        }
      }
    }
  }
`);

// The write mutations as a client sends them, each selecting the same fields of its result.
graphql(`
  fragment WriterResponse on Response {
    id
    status
    dialog {
      id
    }
  }
`);
graphql(`
  fragment WriterError on Error {
    message
    code
  }
`);
graphql(`
  fragment WriterFieldErrors on ValidationError {
    fieldErrors {
      path
      message
    }
  }
`);

const WRITE_CREATE = graphql(`
  mutation WriterCreateResponse($input: CreateResponseInput!) {
    createResponse(input: $input) {
      __typename
      ...WriterResponse
      ...WriterError
      ...WriterFieldErrors
    }
  }
`);

const WRITE_APPEND = graphql(`
  mutation WriterAppendEvents($input: AppendEventsInput!) {
    appendEvents(input: $input) {
      __typename
      ...WriterResponse
      ...WriterError
      ...WriterFieldErrors
    }
  }
`);

const WRITE_COMPLETE = graphql(`
  mutation WriterCompleteResponse($input: CompleteResponseInput!) {
    completeResponse(input: $input) {
      __typename
      ...WriterResponse
      ...WriterError
      ...WriterFieldErrors
    }
  }
`);

const WRITE_INTERRUPT = graphql(`
  mutation WriterInterruptResponse($input: InterruptResponseInput!) {
    interruptResponse(input: $input) {
      __typename
      ...WriterResponse
      ...WriterError
      ...WriterFieldErrors
    }
  }
`);

/** Sends one typed operation and returns its data (failing on GraphQL errors), like executeOk. */
export type Run = <T, V>(document: TypedDocumentNode<T, V>, variables?: V) => Promise<T>;

/**
 * The write mutations as a client sends them, through `run` (by default the in-memory app; pass
 * a real server's HTTP executor when subscribers listen on that server).
 */
export function writer(run: Run = executeOk) {
  return {
    /** Starts a response; anything but a stored Response fails the test (with what came back). */
    createResponse: async (input: CreateResponseInput) =>
      member((await run(WRITE_CREATE, { input })).createResponse, "Response"),
    appendEvents: async (input: AppendEventsInput) => (await run(WRITE_APPEND, { input })).appendEvents,
    completeResponse: async (input: CompleteResponseInput) => (await run(WRITE_COMPLETE, { input })).completeResponse,
    interruptResponse: async (input: InterruptResponseInput) =>
      (await run(WRITE_INTERRUPT, { input })).interruptResponse,
  };
}

const HISTORY_OF = graphql(`
  query HistoryOfDialog($id: ID!) {
    dialog(id: $id) {
      history(first: 100) {
        edges {
          node {
            __typename
            ... on BaseHistoryEvent {
              id
              seq
              createdAt
              metadata
              response {
                id
                model
                status
                metadata
                usage {
                  inputTokens
                  outputTokens
                }
              }
            }
            ... on HumanEvent {
              content
            }
            ... on AiEvent {
              content
            }
            ... on SystemEvent {
              content
            }
            ... on ReasoningEvent {
              content
            }
            ... on ToolCallEvent {
              callId
              toolName
              args
            }
            ... on ToolResultEvent {
              callId
              content
            }
          }
        }
      }
    }
  }
`);

/** Every event of a dialog's head context with the fields a copy must keep. */
export async function historyOf(dialogId: string) {
  const { dialog } = await executeOk(HISTORY_OF, { id: dialogId });
  return dialog!.history.edges.map((e) => e.node);
}
