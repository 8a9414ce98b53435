// Typed queries for the read side of the contract (schema.graphql's Query type).
import { graphql } from "../generated/index.js";

export const DialogsDocument = graphql(`
  query Dialogs($first: Int, $after: String) {
    dialogs(first: $first, after: $after) {
      edges {
        cursor
        node {
          ...DialogSummary
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const DialogDocument = graphql(`
  query Dialog($id: ID!) {
    dialog(id: $id) {
      ...DialogSummary
      forkedFrom {
        id
      }
      branches {
        ...ResponseSummary
      }
    }
  }
`);

/** The context of `responseId` (default: the head), a page at a time, with the totals of its messages, reasoning and tool calls. */
export const DialogHistoryDocument = graphql(`
  query DialogHistory(
    $dialogId: ID!
    $responseId: ID
    $types: [HistoryEventType!]
    $first: Int
    $after: String
    $last: Int
    $before: String
  ) {
    dialog(id: $dialogId) {
      id
      history(responseId: $responseId, types: $types, first: $first, after: $after, last: $last, before: $before) {
        totalMessages
        totalReasoning
        totalToolCalls
        pageInfo {
          hasNextPage
          endCursor
          hasPreviousPage
          startCursor
        }
        edges {
          node {
            ...HistoryEventFields
            ... on BaseHistoryEvent {
              response {
                ...ResponseSummary
              }
            }
          }
        }
      }
    }
  }
`);

/** A dialog's seq counter now: the first read of a history sync (see read-history-snapshot.ts). */
export const DialogLastSeqDocument = graphql(`
  query DialogLastSeq($id: ID!) {
    dialog(id: $id) {
      id
      lastSeq
    }
  }
`);

/** The response a dialog continues from by default, read after its lastSeq. */
export const DialogHeadDocument = graphql(`
  query DialogHead($id: ID!) {
    dialog(id: $id) {
      id
      head {
        ...ResponseSummary
      }
    }
  }
`);

/** One response's state and dialog, without its events. */
export const ResponseTipDocument = graphql(`
  query ResponseTip($id: ID!) {
    response(id: $id) {
      ...ResponseSummary
      dialog {
        id
      }
    }
  }
`);

/** Every response of a dialog with its parent: the whole branch tree, a page at a time. */
export const DialogTreeDocument = graphql(`
  query DialogTree($id: ID!, $first: Int, $after: String) {
    dialog(id: $id) {
      id
      responses(first: $first, after: $after) {
        edges {
          node {
            id
            status
            model
            createdAt
            preview
            previousResponse {
              id
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

export const ResponseDocument = graphql(`
  query Response($id: ID!) {
    response(id: $id) {
      ...ResponseSummary
      dialog {
        id
      }
      children {
        id
      }
      input {
        ...HistoryEventFields
      }
      output {
        ...HistoryEventFields
      }
    }
  }
`);

export const ResponseContextDocument = graphql(`
  query ResponseContext($id: ID!, $types: [HistoryEventType!], $first: Int, $after: String) {
    response(id: $id) {
      id
      context(types: $types, first: $first, after: $after) {
        totalMessages
        totalReasoning
        totalToolCalls
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            ...HistoryEventFields
          }
        }
      }
    }
  }
`);

/**
 * The context of a response in any MessageFormat (OpenAI chat or Responses, Anthropic Messages,
 * AI SDK UIMessages), fitted to `maxTokens` when given, with what the budget left out.
 */
export const ResponseMessagesDocument = graphql(`
  query ResponseMessages(
    $responseId: ID!
    $format: MessageFormat!
    $includeReasoning: Boolean
    $maxTokens: Int
    $tokenizer: Tokenizer
  ) {
    response(id: $responseId) {
      id
      fittedMessages(
        format: $format
        includeReasoning: $includeReasoning
        maxTokens: $maxTokens
        tokenizer: $tokenizer
      ) {
        messages
        tokenCount
        droppedEventCount
        droppedThroughSeq
      }
    }
  }
`);

/** The head's context (or `responseId`'s) in any MessageFormat, and its token count. */
export const DialogMessagesDocument = graphql(`
  query DialogMessages(
    $dialogId: ID!
    $responseId: ID
    $format: MessageFormat!
    $includeReasoning: Boolean
    $maxTokens: Int
    $tokenizer: Tokenizer
  ) {
    dialog(id: $dialogId) {
      id
      messages(
        format: $format
        responseId: $responseId
        includeReasoning: $includeReasoning
        maxTokens: $maxTokens
        tokenizer: $tokenizer
      )
      tokenCount(responseId: $responseId, tokenizer: $tokenizer)
    }
  }
`);

export const ModelsDocument = graphql(`
  query Models {
    models {
      configured
      defaultModel
    }
  }
`);
