// Callers with API keys: a tenant's key, and clients of a real server that send it (HTTP header,
// SSE header, graphql-ws connectionParams).
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import { atEveryFileEnd } from "./file-scope.js";
import WebSocket from "ws";
import { createApiKey } from "../../src/auth/api-keys.js";
import { store } from "./database.js";
import { newDialogId, newResponseId } from "../../src/ids.js";
import type { RunningServer } from "../../src/server/http-server.js";

const disposers: (() => unknown)[] = [];
atEveryFileEnd(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

export async function tenantKey(tenantId: string) {
  const { key, id } = await createApiKey(store, tenantId, "test");
  return { key, id, authorization: `Bearer ${key}` };
}

export interface RawAnswer {
  status: number;
  body: any;
}

/** POSTs an operation with `key`, returning the HTTP status and the whole body (errors included). */
export function asCaller(server: RunningServer, key: string | null) {
  return async (query: string, variables?: Record<string, unknown>): Promise<RawAnswer> => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key && { authorization: `Bearer ${key}` }) },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: await response.json() };
  };
}

export function restAs(server: RunningServer, key: string | null) {
  return async (path: string): Promise<RawAnswer> => {
    const response = await fetch(`${server.url}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    return { status: response.status, body: await response.json() };
  };
}

export function wsAs(server: RunningServer, key: string | null) {
  const client = createWsClient({
    url: `${server.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams: key ? { authorization: `Bearer ${key}` } : undefined,
  });
  disposers.push(() => client.dispose());
  return client;
}

export function sseAs(server: RunningServer, key: string | null) {
  const client = createSseClient({
    url: `${server.url}/graphql`,
    retryAttempts: 0,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  disposers.push(() => client.dispose());
  return client;
}

/** Fresh ids of the right shape that name nothing. */
export const unknownIds = () => ({ dialog: newDialogId(), response: newResponseId() });

/** The first result of a subscription (or its error), whatever the transport. */
export async function firstResult(iterator: AsyncIterator<unknown>): Promise<unknown> {
  try {
    const { value, done } = await iterator.next();
    return done ? "ended" : value;
  } catch (error) {
    return { thrown: Array.isArray(error) ? error : String((error as Error)?.message ?? error) };
  } finally {
    void iterator.return?.();
  }
}
