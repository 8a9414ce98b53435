// The package's own client (dialogql/client) pointed at a real test server, and the server's view
// of a history to compare a watcher with.
import { atEveryFileEnd } from "./file-scope.js";
import WebSocket from "ws";
import {
  createDialogqlClient,
  type DialogqlClient,
  DialogHistoryDocument,
  type HistoryState,
  type HistoryWatcher,
} from "../../src/client/index.js";

const cleanups: (() => unknown)[] = [];
atEveryFileEnd(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export type TransportName = "ws" | "sse";
export const transports: TransportName[] = ["ws", "sse"];

/** `headers` go with HTTP requests and SSE subscriptions (e.g. an API key's Authorization). */
export function testClient(
  serverUrl: string,
  transport: TransportName,
  headers?: Record<string, string>,
): DialogqlClient {
  const client = createDialogqlClient({ url: `${serverUrl}/graphql`, transport, webSocketImpl: WebSocket, headers });
  cleanups.push(() => client.dispose());
  return client;
}

export function closeAfterAll(watcher: HistoryWatcher) {
  cleanups.unshift(() => watcher.close());
  return watcher;
}

/** `seq type` lines: a history in a form whose differences read well in a failed assertion. */
export const lines = (events: readonly { seq: number; type: string }[]) => events.map((e) => `${e.seq} ${e.type}`);

/** The server's history of a dialog (the head's context, or `responseId`'s), every page. */
export async function serverHistory(client: DialogqlClient, dialogId: string, responseId?: string) {
  const events: { id: string; seq: number; type: string }[] = [];
  let after: string | null = null;
  for (;;) {
    const data: Awaited<ReturnType<typeof readPage>> = await readPage(client, dialogId, responseId, after);
    const history = data.dialog!.history;
    events.push(...history.edges.map(({ node }) => ({ id: node.id, seq: node.seq, type: node.type })));
    if (!history.pageInfo.hasNextPage) return events;
    after = history.pageInfo.endCursor ?? null;
  }
}

const readPage = (client: DialogqlClient, dialogId: string, responseId: string | undefined, after: string | null) =>
  client.request(DialogHistoryDocument, { dialogId, responseId, first: 500, after });

/** Waits (bounded) until the watcher holds exactly the server's history, then returns both. */
export async function settledOnServerHistory(
  watcher: HistoryWatcher,
  client: DialogqlClient,
  dialogId: string,
  responseId?: string,
) {
  const expected = await serverHistory(client, dialogId, responseId);
  const ids = (state: HistoryState) => state.events.map((e) => e.id).join();
  const state = await watcher
    .until((s) => ids(s) === expected.map((e) => e.id).join(), 10_000)
    .catch(() => watcher.state);
  return { expected: lines(expected), actual: lines(state.events), state };
}
