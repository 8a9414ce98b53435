// Limits on what one GraphQL document may ask for, through graphql-armor: tokens (checked while
// parsing, before any work is spent on a huge document), depth, aliases and cost (validation
// rules). Every refusal is a GraphQL error with extensions.code QUERY_TOO_COMPLEX, `limit` naming
// the limit, and a message with the configured and the found values. Fragments are flattened:
// `... on HumanEvent { content }` costs its fields, not an extra level.
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { GraphQLError, type ValidationContext } from "graphql";
import type { Plugin } from "graphql-yoga";
import { useCoercedCost } from "./coerced-cost.js";
import { type LimitName, tooComplex } from "./too-complex.js";
import type { Limits } from "../limits.js";

/** Armor's validation rules report through the validation context instead of throwing. */
const reportAs = (limit: LimitName) => ({
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) => context?.reportError(tooComplex(error, limit)),
  ],
});

export function useQueryLimits(limits: Limits): Plugin[] {
  return [
    maxTokensPlugin({ n: limits.queryTokens }),
    tagTokenLimitErrors(),
    maxDepthPlugin({ n: limits.queryDepth, flattenFragments: true, ...reportAs("depth") }),
    maxAliasesPlugin({ n: limits.queryAliases, ...reportAs("aliases") }),
    costLimitPlugin({ maxCost: limits.queryCost, flattenFragments: true, ...reportAs("cost") }),
    useCoercedCost(limits.queryCost),
  ] as Plugin[];
}

/** The token limit is enforced by the parser, which can only throw: give its error our code. */
function tagTokenLimitErrors(): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parseFn(source, options);
        } catch (error) {
          if (error instanceof GraphQLError && /Token limit of \d+ exceeded/.test(error.message)) {
            throw tooComplex(error, "tokens");
          }
          throw error;
        }
      });
    },
  };
}
