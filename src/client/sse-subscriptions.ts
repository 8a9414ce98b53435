// Subscriptions over Server-Sent Events (graphql-sse's distinct-connections mode, which Yoga
// serves on the GraphQL path): one HTTP response per subscription, no WebSocket needed.
import { createClient } from "graphql-sse";
import { printDocument } from "./http-execute.js";
import type { Transport } from "./transport.js";

export interface SseOptions {
  /** http(s):// URL of the GraphQL endpoint. */
  url: string;
  fetch?: typeof fetch;
  /** Sent with every stream; a function is called for each one. */
  headers?: Record<string, string> | (() => Record<string, string>);
}

export function sseSubscriptions(options: SseOptions) {
  const client = createClient({
    url: options.url,
    ...(options.fetch ? { fetchFn: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    // As with graphql-ws: a dropped stream ends the subscription and its owner resumes it.
    retryAttempts: 0,
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
