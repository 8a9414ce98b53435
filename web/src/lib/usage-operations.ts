// The usage views' operations (docs/usage.md): a dialog's and a branch's totals, and the tenant's
// spend per day and model. Typed by codegen like the client's own.
import { graphql } from "../../../src/client/generated/index.js";

export const DialogUsageDocument = graphql(`
  query DialogUsage($dialogId: ID!, $responseId: ID!, $withBranch: Boolean!) {
    dialog(id: $dialogId) {
      id
      usage {
        totalTokens
        inputTokens
        outputTokens
        cachedTokens
        reasoningTokens
        cost
      }
    }
    response(id: $responseId) @include(if: $withBranch) {
      id
      contextUsage {
        totalTokens
        inputTokens
        outputTokens
        cachedTokens
        reasoningTokens
        cost
      }
    }
  }
`);

export const UsageByDayAndModelDocument = graphql(`
  query UsageByDayAndModel($from: Date, $to: Date) {
    usage(groupBy: [DAY, MODEL], from: $from, to: $to) {
      currency
      rows {
        day
        model
        responses
        unpricedTokens
        usage {
          totalTokens
          cost
        }
      }
      total {
        totalTokens
        inputTokens
        outputTokens
        cost
      }
    }
  }
`);
