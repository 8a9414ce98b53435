// Real servers on loopback ports and real subscription clients (graphql-ws over WebSocket,
// graphql-sse over HTTP), closed after each test file so nothing is left listening.
import { createClient as createSseClient } from "graphql-sse";
import { type Client as WsClient, createClient as createWsClient } from "graphql-ws";
import { atEveryFileEnd } from "./file-scope.js";
import WebSocket from "ws";
import { type RunningServer, type ServerOptions, startServer } from "../../src/server/http-server.js";
import { store, testConfig } from "./database.js";

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

/** Sends one operation to a real server over HTTP; fails on any GraphQL error. */
export function httpExecutor(server: RunningServer) {
  return async (query: string, variables?: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    const result = (await response.json()) as Result<any>;
    if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
    return result.data;
  };
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

export const HISTORY_DELTA = /* GraphQL */ `
  subscription HistoryDelta($dialogId: ID!, $afterSeq: Int) {
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
`;

export interface DeltaData {
  historyDelta: {
    dialogId: string;
    responseId: string;
    seq: number;
    previousSeq: number;
    status: string;
    response: { id: string; status: string };
    append: { __typename: string; id: string; seq: number; metadata: Record<string, unknown>; content?: string }[];
  };
}
