// Fragments shared by the client's operations: one event shape and one response shape, so a
// history read, a delta and a mutation result all hand the same types to the code that draws them.
import { graphql } from "../generated/index.js";

export const ContentPartFieldsFragment = graphql(`
  fragment ContentPartFields on ContentPart {
    __typename
    ... on TextPart {
      text
    }
    ... on ImageUrlPart {
      url
      detail
    }
    ... on AudioPart {
      format
    }
    ... on FilePart {
      fileId
      filename
    }
  }
`);

export const HistoryEventFieldsFragment = graphql(`
  fragment HistoryEventFields on HistoryEvent {
    __typename
    ... on BaseHistoryEvent {
      id
      seq
      type
      createdAt
      metadata
      response {
        id
      }
    }
    ... on HumanEvent {
      content
      parts {
        ...ContentPartFields
      }
    }
    ... on AiEvent {
      content
      parts {
        ...ContentPartFields
      }
    }
    ... on SystemEvent {
      content
      parts {
        ...ContentPartFields
      }
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
`);

export const ResponseSummaryFragment = graphql(`
  fragment ResponseSummary on Response {
    id
    status
    model
    depth
    createdAt
    completedAt
    error
    metadata
    usage {
      inputTokens
      outputTokens
      reasoningTokens
      totalTokens
    }
    previousResponse {
      id
    }
  }
`);

export const DialogSummaryFragment = graphql(`
  fragment DialogSummary on Dialog {
    id
    title
    metadata
    createdAt
    updatedAt
    lastSeq
    head {
      id
      status
      model
    }
  }
`);

export const WriteErrorFieldsFragment = graphql(`
  fragment WriteErrorFields on Error {
    __typename
    message
    code
    ... on ValidationError {
      fieldErrors {
        path
        message
      }
    }
  }
`);
