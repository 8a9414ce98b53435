// Yoga on /graphql, and only there (src/server/routes.ts routes the rest): GraphQL and GraphiQL,
// subscriptions over SSE here and over graphql-ws once src/server/http-server.ts attaches the
// WebSocket server. The protections that concern GraphQL operations sit here as plugins, so HTTP,
// SSE and WebSocket operations all pass through them: CSRF prevention, query limits, input limits,
// error masking, large answers.
import { blockFieldSuggestionsPlugin } from "@escape.tech/graphql-armor-block-field-suggestions";
import { useCSRFPrevention } from "@graphql-yoga/plugin-csrf-prevention";
import { useDisableIntrospection } from "@graphql-yoga/plugin-disable-introspection";
import { renderGraphiQL } from "@graphql-yoga/render-graphiql";
import { createYoga, type Plugin } from "graphql-yoga";
import { type SubscriptionPacing, useSubscriptionPacing } from "../connections/subscription-pacing.js";
import { useSharedSubscriptionResults } from "./shared-subscription-results.js";
import { useSseNextMessages } from "./sse-next-messages.js";
import { logger } from "../logger.js";
import { schema } from "../schema/index.js";
import type { AppServices, Context } from "../schema/context.js";
import { useBodyLimit } from "./body-limit.js";
import { useCompiledQueries } from "./compiled-queries.js";
import { contextFactory, type ServerContext } from "./context.js";
import { toRequestError, useErrorReporting } from "./error-reporting.js";
import { useEndSubscriptionOnFailedEvent } from "./failed-subscription-events.js";
import { exampleQuery } from "./graphiql-example.js";
import { useInputLimits } from "./input-limits.js";
import type { LargeAnswers } from "./large-answers.js";
import { useQueryLimits } from "./query-limits.js";
import { useOperationLog } from "./request-log.js";
import { useStorableTextOnly } from "./storable-text.js";

export const GRAPHQL_PATH = "/graphql";

export function createGraphqlEndpoint(
  services: AppServices,
  options: {
    graphiql: boolean;
    introspection: boolean;
    largeAnswers: LargeAnswers;
    subscriptionStarts: SubscriptionPacing;
  },
) {
  const { limits, store } = services;
  return createYoga<ServerContext, Context>({
    schema,
    context: contextFactory(services, options.largeAnswers),
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    logging: yogaLogger,
    // GraphiQL's scripts and styles come inline from the npm package, not from a CDN: a
    // self-hosted service on a closed network must still show it.
    renderGraphiQL,
    graphiql: options.graphiql && { title: "dialogql", defaultQuery: exampleQuery },
    // CORS is the front server's, for every route (src/server/app.ts).
    cors: false,
    // MAX_BODY_BYTES is enforced by useBodyLimit (the last plugin), which counts only what needs counting.
    maxRequestBodySize: false,
    // The last line of defence, for errors outside execution (useErrorReporting handles the rest,
    // with the request id).
    maskedErrors: { maskError: toRequestError },
    plugins: [
      useOperationLog(),
      // A subscription over SSE waits for its turn to start, as one over graphql-ws does (graphql-ws.ts).
      useSubscriptionPacing(options.subscriptionStarts),
      // Browsers send a cross-site form or a plain GET without a preflight; requiring a JSON body
      // or a header they cannot add cross-site (Authorization included) stops such requests.
      useCSRFPrevention({ requestHeaders: ["x-graphql-yoga-csrf", "authorization"] }),
      ...(options.introspection ? [] : [useDisableIntrospection(), blockFieldSuggestionsPlugin() as Plugin]),
      ...useQueryLimits(limits),
      useStorableTextOnly(),
      useInputLimits(store.writeLimits.eventBytes),
      useErrorReporting(),
      useEndSubscriptionOnFailedEvent(),
      useSharedSubscriptionResults(),
      // Subscriptions over SSE: each result serialised once, caught-up subscribers written by their lane.
      useSseNextMessages(),
      useCompiledQueries(),
      options.largeAnswers.plugin(),
      // After Yoga's request parsers (registered before these plugins), so it sees the chosen one.
      useBodyLimit(limits.bodyBytes),
    ],
  });
}

export type GraphqlEndpoint = ReturnType<typeof createGraphqlEndpoint>;

// Yoga logs every error it masks; a request that is not JSON is the client's mistake (answered
// 400 by toRequestError), not worth an error line.
const yogaLogger = {
  debug: (...args: unknown[]) => logger.debug(...(args as [unknown])),
  info: (...args: unknown[]) => logger.info(...(args as [unknown])),
  warn: (...args: unknown[]) => logger.warn(...(args as [unknown])),
  error: (...args: unknown[]) => (args[0] instanceof SyntaxError ? logger.debug : logger.error)(...(args as [unknown])),
};
