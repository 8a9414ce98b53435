// buildApp(): the whole HTTP surface as one Yoga instance, used by the server and by tests
// (`app.fetch`). GraphQL and GraphiQL on /graphql (subscriptions over SSE here, and over
// graphql-ws once src/server/http-server.ts attaches a WebSocket server); seed 001's REST
// endpoint as a Yoga plugin. The protections sit here as plugins, so HTTP, SSE and WebSocket
// operations all pass through them: request ids, CSRF prevention, query limits, error masking.
import { blockFieldSuggestionsPlugin } from "@escape.tech/graphql-armor-block-field-suggestions";
import { useCSRFPrevention } from "@graphql-yoga/plugin-csrf-prevention";
import { useDisableIntrospection } from "@graphql-yoga/plugin-disable-introspection";
import { createYoga, type Plugin } from "graphql-yoga";
import { config } from "../config.js";
import { createLiveBus, type LiveBus } from "../live/live-bus.js";
import { handleHistoryRequest, historyRoute, json } from "../rest/history-endpoint.js";
import { schema } from "../schema/index.js";
import { contextFactory } from "./context.js";
import { toRequestError, UNAVAILABLE_MESSAGE, useErrorReporting } from "./error-reporting.js";
import { type Limits, limitsFromConfig } from "./limits.js";
import { logger } from "./logger.js";
import { useQueryLimits } from "./query-limits.js";
import { requestIdOf, useRequestId } from "./request-id.js";
import { useStorableTextOnly } from "./storable-text.js";
import { isDatabaseUnavailable } from "../db/unavailable.js";

export interface AppOptions {
  /** Where mutations publish and subscriptions listen; in-process when not given. */
  live?: LiveBus;
  /** Abuse limits; from the configuration when not given. */
  limits?: Partial<Limits>;
  /** GraphiQL and introspection; from the configuration (off in production) when not given. */
  graphiql?: boolean;
  introspection?: boolean;
}

export function buildApp(options: AppOptions = {}) {
  const live = options.live ?? createLiveBus();
  const limits = limitsFromConfig(options.limits);
  const introspection = options.introspection ?? config.INTROSPECTION;
  const yoga = createYoga({
    schema,
    context: contextFactory(live),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    logging: yogaLogger,
    graphiql: (options.graphiql ?? config.GRAPHIQL) && { title: "dialogql", defaultQuery: exampleQuery },
    cors: corsOptions(config.CORS_ORIGINS),
    maxRequestBodySize: limits.bodyBytes,
    // The last line of defence, for errors outside execution (useErrorReporting handles the rest,
    // with the request id).
    maskedErrors: { maskError: toRequestError },
    plugins: [
      useRequestId(),
      useRestEndpoints(),
      // Browsers send a cross-site form or a plain GET without a preflight; requiring a JSON body
      // or a header they cannot add cross-site (Authorization included) stops such requests.
      useCSRFPrevention({ requestHeaders: ["x-graphql-yoga-csrf", "authorization"] }),
      ...(introspection ? [] : [useDisableIntrospection(), blockFieldSuggestionsPlugin() as Plugin]),
      ...useQueryLimits(limits),
      useStorableTextOnly(),
      useErrorReporting(),
    ],
  });

  return Object.assign(yoga, { limits });
}

export type App = ReturnType<typeof buildApp>;

// Yoga logs every error it masks; a request that is not JSON is the client's mistake (answered
// 400 by toRequestError), not worth an error line.
const yogaLogger = {
  ...logger,
  error: (...args: unknown[]) => (args[0] instanceof SyntaxError ? logger.debug : logger.error)(...args),
};

/** Same-origin pages always work; other origins only when CORS_ORIGINS lists them (or is *). */
function corsOptions(origins: string) {
  const list = origins
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (!list.length) return false;
  return { origin: list.includes("*") ? "*" : list, credentials: false };
}

function useRestEndpoints(): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname === "/") return endResponse(Response.redirect(new URL("/graphql", url), 302));
      const history = historyRoute.exec(url.pathname);
      if (!history || request.method !== "GET") return;
      try {
        endResponse(await handleHistoryRequest(decodePathSegment(history[1]!), url));
      } catch (error) {
        const requestId = requestIdOf(request);
        if (isDatabaseUnavailable(error)) {
          logger.warn(`request ${requestId}: database unavailable (REST history)`);
          return endResponse(json(503, { detail: UNAVAILABLE_MESSAGE }));
        }
        logger.error(`request ${requestId}: REST history failed`, error);
        endResponse(json(500, { detail: "Internal server error" }));
      }
    },
  };
}

/** A malformed escape (`%zz`) cannot name a dialog: keep it as it is, and it is not found. */
function decodePathSegment(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const exampleQuery = /* GraphQL */ `
  # Welcome to dialogql. Write a turn, then read the history back.
  # Watch a dialog live: run WatchDialog with its id here, then write to it from another tab.
  mutation Start {
    createResponse(
      input: { model: "gpt-4o", input: [{ human: { content: "Hello" } }], output: [{ ai: { content: "Hi!" } }] }
    ) {
      ... on Response {
        id
        dialog {
          id
        }
      }
      ... on Error {
        message
        code
      }
    }
  }

  subscription WatchDialog {
    historyDelta(dialogId: "<dialog id>", afterSeq: 0) {
      seq
      previousSeq
      status
      append {
        __typename
        ... on BaseHistoryEvent {
          seq
        }
        ... on HumanEvent {
          content
        }
        ... on AiEvent {
          content
        }
      }
    }
  }

  query Dialogs {
    dialogs(first: 5) {
      edges {
        node {
          id
          title
          history {
            totalMessages
            edges {
              node {
                __typename
                ... on HumanEvent {
                  content
                }
                ... on AiEvent {
                  content
                }
              }
            }
          }
        }
      }
    }
  }
`;
