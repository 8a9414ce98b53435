// createDialogqlClient: one object for a Node script or a browser app to talk to dialogql —
// typed operations over HTTP, subscriptions over graphql-ws or SSE, and watchHistory on top.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { type ApiKeySource, bearerOf } from "./api-key.js";
import { httpExecute } from "./http-execute.js";
import { sseSubscriptions } from "./sse-subscriptions.js";
import { dataOf, type Transport } from "./transport.js";
import type { HistoryWatcher, WatchHistoryOptions } from "./history-watcher.js";
import { followHistory } from "./watch-history.js";
import { wsSubscriptions } from "./ws-subscriptions.js";

export interface DialogqlClientOptions {
  /** The GraphQL endpoint over HTTP, e.g. http://localhost:4000/graphql. */
  url: string;
  /** How subscriptions travel: graphql-ws on the same path (default) or Server-Sent Events. */
  transport?: "ws" | "sse";
  /** For graphql-ws in Node 20, which has no global WebSocket: e.g. the `ws` package's. */
  webSocketImpl?: unknown;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  /** A tenant's API key, when the server requires one; a function is read for every request and socket. */
  apiKey?: ApiKeySource;
}

export interface DialogqlClient extends Transport {
  /** Runs a query or mutation and returns its data; GraphQL errors reject with a DialogqlError. */
  request<TData, TVariables>(document: TypedDocumentNode<TData, TVariables>, variables: TVariables): Promise<TData>;
  /** Follows a dialog's history live (see watchHistory). */
  watchHistory(dialogId: string, options?: WatchHistoryOptions): HistoryWatcher;
  /** Closes the subscription connections. */
  dispose(): Promise<void>;
}

export function createDialogqlClient(options: DialogqlClientOptions): DialogqlClient {
  const authorization = (): Record<string, string> => {
    const bearer = bearerOf(options.apiKey);
    return bearer ? { authorization: bearer } : {};
  };
  const headers = () => ({ ...options.headers, ...authorization() });
  const execute = httpExecute({ ...options, headers });
  const subscriptions =
    options.transport === "sse"
      ? sseSubscriptions({ ...options, headers })
      : wsSubscriptions({
          url: options.url.replace(/^http/, "ws"),
          webSocketImpl: options.webSocketImpl,
          connectionParams: authorization,
        });
  const client: DialogqlClient = {
    execute,
    subscribe: subscriptions.subscribe,
    request: async (document, variables) => dataOf(await execute(document, variables)),
    watchHistory: (dialogId, watchOptions) => followHistory(client, dialogId, watchOptions),
    dispose: async () => void (await subscriptions.dispose()),
  };
  return client;
}

export type WatchHistoryConnection =
  /** An existing client or transport (kept open when the watcher closes). */
  | { client: Transport }
  /** Where to connect; the watcher opens its own client and disposes it on close. */
  | DialogqlClientOptions;

/**
 * Loads a dialog's history and keeps it equal to the server's: subscribes to historyDelta after
 * the seq it loaded, applies each delta, resumes after a dropped connection from the last seq it
 * holds, and reads the history again when a delta does not fit.
 *
 *     const watcher = watchHistory(dialogId, { url: "http://localhost:4000/graphql", transport: "sse",
 *       onChange: (state) => render(state.events) });
 */
export function watchHistory(dialogId: string, options: WatchHistoryOptions & WatchHistoryConnection): HistoryWatcher {
  if ("client" in options) return followHistory(options.client, dialogId, options);
  const client = createDialogqlClient(options);
  return followHistory(client, dialogId, options, () => void client.dispose());
}
