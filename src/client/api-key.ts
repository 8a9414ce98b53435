// The API key a dialogql client sends: `Authorization: Bearer <key>` on every HTTP request (and
// SSE stream), and `authorization` in graphql-ws connectionParams (the server checks a socket's
// key once, at connection_init).

/** A key, none, or a function read again for every request and every new WebSocket. */
export type ApiKeySource = string | null | undefined | (() => string | null | undefined);

export function currentApiKey(source: ApiKeySource): string | null {
  const key = typeof source === "function" ? source() : source;
  return key?.trim() || null;
}

/** The Authorization header value for `source`, or null when there is no key to send. */
export function bearerOf(source: ApiKeySource): string | null {
  const key = currentApiKey(source);
  return key ? `Bearer ${key}` : null;
}
