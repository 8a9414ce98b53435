// <DialogqlProvider>: puts an urql Client for dialogql in context for the hooks (and for urql's
// own useQuery/useSubscription with any generated document).
import { createElement, type ReactNode, useMemo } from "react";
import { type Client, Provider } from "urql";
import { createDialogqlUrqlClient, type DialogqlUrqlOptions } from "./create-urql-client.js";

export interface DialogqlProviderProps extends DialogqlUrqlOptions {
  /** An urql Client of your own (e.g. with auth exchanges); `url` is then ignored. */
  client?: Client;
  children?: ReactNode;
}

export function DialogqlProvider({ client, url, webSocketImpl, children }: DialogqlProviderProps) {
  const value = useMemo(() => client ?? createDialogqlUrqlClient({ url, webSocketImpl }), [client, url, webSocketImpl]);
  return createElement(Provider, { value }, children);
}
