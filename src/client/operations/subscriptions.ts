// Typed subscriptions: the live side of the contract, over graphql-ws or SSE.
import { graphql } from "../generated/index.js";

export const HistoryDeltaDocument = graphql(`
  subscription HistoryDelta($dialogId: ID!, $afterSeq: Int, $textOffsets: [TextOffsetInput!]) {
    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq, textOffsets: $textOffsets) {
      dialogId
      cleared
      responseDeleted
      responseId
      seq
      previousSeq
      status
      endsTextPart
      text {
        responseId
        part
        type
        offset
        delta
      }
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
