// <DialogqlProvider>: puts an urql Client for dialogql in context for the hooks (and for urql's
// own useQuery/useSubscription with any generated document).
import { createElement, type ReactNode, useMemo, useRef } from "react";
import { type Client, Provider } from "urql";
import { createDialogqlUrqlClient, type DialogqlUrqlOptions } from "./create-urql-client.js";

export interface DialogqlProviderProps extends DialogqlUrqlOptions {
  /** An urql Client of your own (e.g. with auth exchanges); the other options are then ignored. */
  client?: Client;
  children?: ReactNode;
}

export function DialogqlProvider({
  client,
  url,
  webSocketImpl,
  apiKey,
  onUnauthenticated,
  children,
}: DialogqlProviderProps) {
  // The latest callback, so an inline arrow function does not make a new client on every render.
  const latestOnUnauthenticated = useRef(onUnauthenticated);
  latestOnUnauthenticated.current = onUnauthenticated;
  // A new key gets a new client: a fresh cache, and sockets opened with the new key (an open
  // socket keeps the key it was opened with).
  const value = useMemo(
    () =>
      client ??
      createDialogqlUrqlClient({
        url,
        webSocketImpl,
        apiKey,
        onUnauthenticated: (reason) => latestOnUnauthenticated.current?.(reason),
      }),
    [client, url, webSocketImpl, apiKey],
  );
  return createElement(Provider, { value }, children);
}
