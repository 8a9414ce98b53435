// The error every refused document gets (src/server/query-limits.ts, src/server/coerced-cost.ts):
// QUERY_TOO_COMPLEX, with the limit it passed.
import { GraphQLError } from "graphql";

export type LimitName = "tokens" | "depth" | "aliases" | "cost" | "rows" | "bytes" | "time";

export const tooComplex = (error: GraphQLError, limit: LimitName) =>
  new GraphQLError(error.message.replace(/^Syntax Error: /, ""), {
    extensions: { code: "QUERY_TOO_COMPLEX", limit },
  });
