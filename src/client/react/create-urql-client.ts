// An urql Client for dialogql: queries and mutations over HTTP, subscriptions through urql's
// subscription exchange over graphql-ws on the same path, both carrying the API key when given.
import { createClient as createWsClient } from "graphql-ws";
import { Client, cacheExchange, type Exchange, fetchExchange, subscriptionExchange } from "urql";
import { type ApiKeySource, bearerOf } from "../api-key.js";
import { refusalExchange } from "./refusal-exchange.js";
import { numberedOperationIds } from "../operation-ids.js";

export interface DialogqlUrqlOptions {
  /** The GraphQL endpoint; relative URLs resolve against the page (default "/graphql"). */
  url?: string | undefined;
  /** Only outside browsers (Node 20 has no global WebSocket): e.g. the `ws` package's. */
  webSocketImpl?: unknown;
  /**
   * The API key to send (`npm run keys -- create`): as `Authorization: Bearer <key>` over HTTP and
   * in graphql-ws connectionParams. A function is read for every request and every new socket.
   * Without one the client calls anonymously, which a server with no keys (development mode) allows.
   */
  apiKey?: ApiKeySource | undefined;
  /**
   * Called when the server refuses the caller: a missing, unknown or revoked key (HTTP 401
   * UNAUTHENTICATED, or a WebSocket closed with 4401/4403). `reason` is the server's message.
   */
  onUnauthenticated?: ((reason: string) => void) | undefined;
}

export function createDialogqlUrqlClient(options: DialogqlUrqlOptions = {}): Client {
  const { apiKey, onUnauthenticated } = options;
  const url = new URL(options.url ?? "/graphql", globalThis.location?.href).toString();
  const sockets = createWsClient({
    url: url.replace(/^http/, "ws"),
    webSocketImpl: options.webSocketImpl,
    // Read when each socket opens, so a key given as a function is current for every connection.
    connectionParams: () => {
      const authorization = bearerOf(apiKey);
      return authorization ? { authorization } : {};
    },
    // lazy: the socket opens with the first subscription and closes after the last one, so the
    // client needs no disposing. No retries: a dropped socket ends its subscriptions with an
    // error, and useDialogHistory resumes from the seq it holds instead of replaying from the
    // afterSeq it first subscribed with.
    lazy: true,
    retryAttempts: 0,
    generateID: numberedOperationIds(),
  });
  const exchanges: Exchange[] = [
    cacheExchange,
    ...(onUnauthenticated ? [refusalExchange(onUnauthenticated)] : []),
    fetchExchange,
    subscriptionExchange({
      forwardSubscription(request) {
        const operation = { ...request, query: request.query ?? "" };
        // urql's result type and graphql-ws's differ only in how optional `data` is spelled.
        type WsSink = Parameters<typeof sockets.subscribe>[1];
        return { subscribe: (sink) => ({ unsubscribe: sockets.subscribe(operation, sink as WsSink) }) };
      },
    }),
  ];
  return new Client({
    url,
    // POST with a JSON body: the server's CSRF prevention refuses GETs that carry no custom header,
    // and urql would otherwise send short queries as GETs.
    preferGetMethod: false,
    fetchOptions: () => {
      const authorization = bearerOf(apiKey);
      return authorization ? { headers: { authorization } } : {};
    },
    exchanges,
  });
}
