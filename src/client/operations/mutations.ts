// Typed mutations for the write side of the contract. Each returns its object or a typed error
// (`... on Error`), as the schema's result unions do.
import { graphql } from "../generated/index.js";

export const CreateDialogDocument = graphql(`
  mutation CreateDialog($input: CreateDialogInput!) {
    createDialog(input: $input) {
      __typename
      ... on Dialog {
        ...DialogSummary
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

export const UpdateDialogDocument = graphql(`
  mutation UpdateDialog($input: UpdateDialogInput!) {
    updateDialog(input: $input) {
      __typename
      ... on Dialog {
        ...DialogSummary
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

export const ClearDialogDocument = graphql(`
  mutation ClearDialog($input: ClearDialogInput!) {
    clearDialog(input: $input) {
      __typename
      ... on Dialog {
        ...DialogSummary
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

export const DeleteDialogDocument = graphql(`
  mutation DeleteDialog($input: DeleteDialogInput!) {
    deleteDialog(input: $input) {
      __typename
      ... on DeleteDialogPayload {
        id
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

export const CreateResponseDocument = graphql(`
  mutation CreateResponse($input: CreateResponseInput!) {
    createResponse(input: $input) {
      __typename
      ... on Response {
        ...ResponseSummary
        dialog {
          id
        }
        input {
          ...HistoryEventFields
        }
        output {
          ...HistoryEventFields
        }
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

export const AppendEventsDocument = graphql(`
  mutation AppendEvents($input: AppendEventsInput!) {
    appendEvents(input: $input) {
      __typename
      ... on Response {
        ...ResponseSummary
        output {
          ...HistoryEventFields
        }
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

export const CompleteResponseDocument = graphql(`
  mutation CompleteResponse($input: CompleteResponseInput!) {
    completeResponse(input: $input) {
      __typename
      ... on Response {
        ...ResponseSummary
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

export const InterruptResponseDocument = graphql(`
  mutation InterruptResponse($input: InterruptResponseInput!) {
    interruptResponse(input: $input) {
      __typename
      ... on Response {
        ...ResponseSummary
        output {
          ...HistoryEventFields
        }
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

/** A conversation in any MessageFormat stored as chained responses; the last one comes back. */
export const ImportMessagesDocument = graphql(`
  mutation ImportMessages($input: ImportMessagesInput!) {
    importMessages(input: $input) {
      __typename
      ... on Response {
        ...ResponseSummary
        dialog {
          id
        }
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

/** One text delta of an answer being typed (docs/live-history.md). */
export const StreamTextDocument = graphql(`
  mutation StreamText($input: StreamTextInput!) {
    streamText(input: $input) {
      __typename
      ... on TextPosition {
        responseId
        part
        type
        offset
        length
      }
      ... on TextOffsetError {
        expectedOffset
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

export const CommitTextDocument = graphql(`
  mutation CommitText($responseId: ID!) {
    commitText(responseId: $responseId) {
      __typename
      ... on Response {
        ...ResponseSummary
      }
      ... on Error {
        ...WriteErrorFields
      }
    }
  }
`);

export const GenerateResponseDocument = graphql(`
  mutation GenerateResponse($input: GenerateResponseInput!) {
    generateResponse(input: $input) {
      __typename
      ... on Response {
        ...ResponseSummary
        dialog {
          id
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`);
