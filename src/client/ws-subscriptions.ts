// Subscriptions over graphql-ws (WebSocket on the GraphQL path).
import { createClient } from "graphql-ws";
import { printDocument } from "./http-execute.js";
import { numberedOperationIds } from "./operation-ids.js";
import type { Transport } from "./transport.js";

export interface WsOptions {
  /** ws:// or wss:// URL of the GraphQL endpoint. */
  url: string;
  /** Browsers have WebSocket; Node 20 needs one passed in (e.g. the `ws` package's). */
  webSocketImpl?: unknown;
  /** Sent in connection_init; a function is called for each new socket. */
  connectionParams?: Record<string, unknown> | (() => Record<string, unknown>);
}

export function wsSubscriptions(options: WsOptions) {
  const webSocketImpl = options.webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket;
  if (!webSocketImpl) {
    throw new Error(
      'No WebSocket here: pass webSocketImpl (e.g. `import WebSocket from "ws"`) or use transport: "sse"',
    );
  }
  const client = createClient({
    url: options.url,
    webSocketImpl,
    connectionParams: options.connectionParams,
    // No retries here: the socket's subscriptions end with an error and their owners decide how
    // to resume (see Transport.subscribe). The next subscribe opens a new socket.
    retryAttempts: 0,
    lazy: true,
    generateID: numberedOperationIds(),
  });
  const subscribe: Transport["subscribe"] = (document, variables, sink) =>
    client.subscribe(
      { ...printDocument(document), variables: variables as Record<string, unknown> },
      {
        next: (result) => sink.next(result as never),
        error: (error) => sink.error(error),
        complete: () => sink.complete(),
      },
    );
  return { subscribe, dispose: () => client.dispose() };
}
