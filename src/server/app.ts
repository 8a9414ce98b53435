// buildApp(): the whole HTTP surface as one Yoga instance, used by the server and by tests
// (`app.fetch`). GraphQL and GraphiQL on /graphql (subscriptions over SSE here, and over
// graphql-ws once src/server/http-server.ts attaches a WebSocket server); seed 001's REST
// endpoint as a Yoga plugin; the web viewer's static build on every other path.
import { createYoga, type Plugin } from "graphql-yoga";
import { createLiveBus, type LiveBus } from "../live/live-bus.js";
import { handleHistoryRequest, historyRoute, json } from "../rest/history-endpoint.js";
import { schema } from "../schema/index.js";
import { useSharedSubscriptionResults } from "../live/shared-subscription-results.js";
import { contextFactory } from "./context.js";
import { logger } from "./logger.js";
import { useWebViewer } from "./web-viewer.js";

export interface AppOptions {
  /** Where mutations publish and subscriptions listen; in-process when not given. */
  live?: LiveBus;
}

export function buildApp(options: AppOptions = {}) {
  const live = options.live ?? createLiveBus();
  const yoga = createYoga({
    schema,
    context: contextFactory(live),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    logging: logger,
    graphiql: { title: "dialogql", defaultQuery: exampleQuery },
    // Expected errors are GraphQLErrors and pass through; anything else is logged and masked.
    maskedErrors: true,
    plugins: [useRestEndpoints(), useSharedSubscriptionResults(), useWebViewer({ apiPaths: ["/graphql", "/api/"] })],
  });

  return yoga;
}

export type App = ReturnType<typeof buildApp>;

function useRestEndpoints(): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      const history = historyRoute.exec(url.pathname);
      if (!history || request.method !== "GET") return;
      try {
        endResponse(await handleHistoryRequest(decodeURIComponent(history[1]!), url));
      } catch (error) {
        logger.error("REST history failed", error);
        endResponse(json(500, { detail: "Internal server error" }));
      }
    },
  };
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
