// An urql Client for dialogql: queries and mutations over HTTP, subscriptions through urql's
// subscription exchange over graphql-ws on the same path.
import { createClient as createWsClient } from "graphql-ws";
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from "urql";

export interface DialogqlUrqlOptions {
  /** The GraphQL endpoint; relative URLs resolve against the page (default "/graphql"). */
  url?: string;
  /** Only outside browsers (Node 20 has no global WebSocket): e.g. the `ws` package's. */
  webSocketImpl?: unknown;
}

export function createDialogqlUrqlClient(options: DialogqlUrqlOptions = {}): Client {
  const url = new URL(options.url ?? "/graphql", globalThis.location?.href).toString();
  const sockets = createWsClient({
    url: url.replace(/^http/, "ws"),
    webSocketImpl: options.webSocketImpl,
    // lazy: the socket opens with the first subscription and closes after the last one, so the
    // client needs no disposing. No retries: a dropped socket ends its subscriptions with an
    // error, and useDialogHistory resumes from the seq it holds instead of replaying from the
    // afterSeq it first subscribed with.
    lazy: true,
    retryAttempts: 0,
  });
  return new Client({
    url,
    // POST with a JSON body: the server's CSRF prevention refuses GETs that carry no custom header,
    // and urql would otherwise send short queries as GETs.
    preferGetMethod: false,
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const operation = { ...request, query: request.query ?? "" };
          return { subscribe: (sink) => ({ unsubscribe: sockets.subscribe(operation, sink) }) };
        },
      }),
    ],
  });
}
