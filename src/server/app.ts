// buildApp(): the whole HTTP surface as one Yoga instance, used by the server and by tests
// (`app.fetch`). GraphQL and GraphiQL on /graphql; seed 001's REST endpoint as a Yoga plugin.
import { createYoga, type Plugin } from "graphql-yoga";
import { handleHistoryRequest, historyRoute, json } from "../rest/history-endpoint.js";
import { schema } from "../schema/index.js";
import { createContext } from "./context.js";
import { logger } from "./logger.js";

export function buildApp() {
  const yoga = createYoga({
    schema,
    context: createContext,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    logging: logger,
    graphiql: { title: "dialogql", defaultQuery: exampleQuery },
    // Expected errors are GraphQLErrors and pass through; anything else is logged and masked.
    maskedErrors: true,
    plugins: [useRestEndpoints()],
  });

  return yoga;
}

export type App = ReturnType<typeof buildApp>;

function useRestEndpoints(): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname === "/") return endResponse(Response.redirect(new URL("/graphql", url), 302));
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
