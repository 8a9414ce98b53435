// Typed subscriptions: the live side of the contract, over graphql-ws or SSE.
import { graphql } from "../generated/index.js";

export const HistoryDeltaDocument = graphql(`
  subscription HistoryDelta($dialogId: ID!, $afterSeq: Int) {
    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
      dialogId
      cleared
      responseId
      seq
      previousSeq
      status
      response {
        ...ResponseSummary
      }
      append {
        ...HistoryEventFields
      }
    }
  }
`);

export const ResponseUpdatedDocument = graphql(`
  subscription ResponseUpdated($responseId: ID!) {
    responseUpdated(responseId: $responseId) {
      ...ResponseSummary
      output {
        ...HistoryEventFields
      }
    }
  }
`);
