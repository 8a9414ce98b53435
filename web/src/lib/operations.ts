// The workbench's operations: search, the filtered dialog list, branch comparison and the dialog
// actions (rename, delete, fork, export). Typed by codegen like the client's own.
import { graphql } from "../../../src/client/generated/index.js";

export const SearchEventsDocument = graphql(`
  query SearchEvents($query: String!, $filter: SearchFilter, $first: Int, $after: String) {
    search(query: $query, filter: $filter, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          dialogId
          responseId
          seq
          snippetParts {
            text
            match
          }
          dialog {
            id
            title
            preview
          }
          event {
            __typename
            ... on BaseHistoryEvent {
              id
              type
            }
            ... on ToolCallEvent {
              toolName
            }
            ... on ToolResultEvent {
              toolName
              isError
            }
          }
        }
      }
    }
  }
`);

export const DialogPageDocument = graphql(`
  query DialogPage($first: Int, $after: String, $filter: SearchFilter, $orderBy: DialogOrder) {
    dialogs(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          title
          preview
          updatedAt
          eventCount
          head {
            id
            status
            model
            createdAt
            completedAt
          }
        }
      }
    }
  }
`);

export const DialogDetailsDocument = graphql(`
  query DialogDetails($id: ID!) {
    dialog(id: $id) {
      id
      title
      preview
      metadata
      head {
        id
      }
      forkedFrom {
        id
        dialog {
          id
          title
        }
      }
      branches {
        id
        depth
        model
        status
        createdAt
      }
    }
  }
`);

export const BranchOutlineDocument = graphql(`
  query BranchOutline($a: ID!, $b: ID!) {
    compareBranches(a: $a, b: $b) {
      commonAncestor {
        id
        depth
      }
      b {
        preview
        eventCount
      }
    }
  }
`);

export const CompareBranchesDocument = graphql(`
  query CompareBranches($a: ID!, $b: ID!) {
    compareBranches(a: $a, b: $b) {
      commonAncestor {
        id
        depth
      }
      shared(first: 1) {
        totalMessages
      }
      a {
        ...BranchSideFields
      }
      b {
        ...BranchSideFields
      }
    }
  }
`);

export const BranchSideFieldsFragment = graphql(`
  fragment BranchSideFields on BranchSide {
    tip {
      id
      model
      status
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
      ...HistoryEventFields
    }
  }
`);

export const ExportMessagesDocument = graphql(`
  query ExportMessages($id: ID!, $format: MessageFormat!) {
    response(id: $id) {
      id
      messages(format: $format)
    }
  }
`);

export const ExportTranscriptDocument = graphql(`
  query ExportTranscript($dialogId: ID!, $responseId: ID) {
    dialog(id: $dialogId) {
      id
      transcript(responseId: $responseId)
    }
  }
`);

export const ForkDialogDocument = graphql(`
  mutation ForkDialogFromViewer($input: ForkDialogInput!) {
    forkDialog(input: $input) {
      __typename
      ... on Dialog {
        id
      }
      ... on Error {
        message
      }
    }
  }
`);
