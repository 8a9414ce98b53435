// Real servers on loopback ports and real subscription clients (graphql-ws over WebSocket,
// graphql-sse over HTTP), closed after each test file so nothing is left listening.
import type { ResultOf, TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { createClient as createSseClient } from "graphql-sse";
import { type Client as WsClient, createClient as createWsClient } from "graphql-ws";
import { atEveryFileEnd } from "./file-scope.js";
import WebSocket from "ws";
import { graphql } from "../../src/client/generated/index.js";
import { type RunningServer, type ServerOptions, startServer } from "../../src/server/http-server.js";
import { store, testConfig } from "./database.js";
import type { Run } from "./dialogs.js";

const cleanups: (() => Promise<void> | void)[] = [];
atEveryFileEnd(async () => {
  // Clients first, then servers: a server closing under a client would be a reconnect storm.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A server on a free loopback port, on this file's store, with `options` over the test
 * configuration. With TEST_REDIS_URL set its live fan-out goes through Redis (channels are per
 * dialog, and dialog ids are unique, so test files never hear each other).
 */
export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<RunningServer> {
  const server = await startServer({
    store,
    config: testConfig,
    port: 0,
    redisUrl: process.env.TEST_REDIS_URL ?? null,
    ...options,
  });
  cleanups.push(() => server.close());
  return server;
}

/** Sends one typed operation to a real server over HTTP; fails on any GraphQL error. */
export function httpExecutor(server: Pick<RunningServer, "url">): Run {
  return async <T, V>(document: TypedDocumentNode<T, V>, variables?: V) => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: print(document), variables }),
    });
    const result = (await response.json()) as Result<T>;
    if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
    return result.data!;
  };
}

/** A subscription client of either transport (graphql-ws or graphql-sse). */
export interface Iterating {
  iterate<Data>(request: { query: string; variables?: Record<string, unknown> }): AsyncIterableIterator<Result<Data>>;
}

/** Subscribes with a typed document: results carry its data type. */
export function subscribe<T, V>(
  client: Iterating,
  document: TypedDocumentNode<T, V>,
  variables: V,
): AsyncIterableIterator<Result<T>> {
  return client.iterate<T>({ query: print(document), variables: variables as Record<string, unknown> });
}

export function wsClient(server: RunningServer): WsClient {
  const client = createWsClient({
    url: `${server.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  cleanups.push(() => client.dispose());
  return client;
}

export function sseClient(server: RunningServer) {
  const client = createSseClient({ url: `${server.url}/graphql`, retryAttempts: 0 });
  cleanups.push(() => client.dispose());
  return client;
}

export interface Result<T> {
  data?: T | null;
  errors?: readonly { message: string; extensions?: Record<string, unknown> }[];
}

/** Pulls exactly `count` results from a subscription, failing on the first error result. */
export async function take<T>(results: AsyncIterator<Result<T>>, count: number): Promise<T[]> {
  const taken: T[] = [];
  while (taken.length < count) {
    const { value, done } = await results.next();
    if (done) throw new Error(`the subscription ended after ${taken.length} of ${count} results`);
    if (value.errors?.length) throw new Error(`subscription error: ${JSON.stringify(value.errors)}`);
    taken.push(value.data!);
  }
  return taken;
}

export const HISTORY_DELTA = graphql(`
  subscription LiveHistoryDelta($dialogId: ID!, $afterSeq: Int) {
    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
      dialogId
      responseId
      seq
      previousSeq
      status
      response {
        id
        status
      }
      append {
        __typename
        ... on BaseHistoryEvent {
          id
          seq
          metadata
        }
        ... on HumanEvent {
          content
        }
        ... on AiEvent {
          content
        }
        ... on ReasoningEvent {
          content
        }
        ... on ToolCallEvent {
          callId
          toolName
          args
        }
        ... on ToolResultEvent {
          callId
          content
        }
      }
    }
  }
`);

export type DeltaData = ResultOf<typeof HISTORY_DELTA>;
