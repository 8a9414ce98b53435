// The client's graphql-ws operations are numbered "1", "2", … (src/client/operation-ids.ts), not
// given random UUIDs: viewers of one dialog then send their subscriptions under the same id, and the
// server frames each delta's `next` message once for all of them.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { parse } from "graphql";
import { wsSubscriptions } from "../src/client/ws-subscriptions.js";
import { createDialogqlUrqlClient } from "../src/client/react/create-urql-client.js";
import { until } from "./support/until.js";

let server: WebSocketServer;
afterEach(() => {
  for (const client of server.clients) client.terminate();
  return new Promise((resolve) => server.close(resolve));
});

/** A graphql-transport-ws server that acknowledges every connection and records each subscribe's id. */
async function recordingServer() {
  server = new WebSocketServer({ port: 0, host: "127.0.0.1", handleProtocols: () => "graphql-transport-ws" });
  await once(server, "listening");
  const ids: string[] = [];
  server.on("connection", (socket) =>
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { type: string; id?: string };
      if (message.type === "connection_init") socket.send(JSON.stringify({ type: "connection_ack" }));
      if (message.type === "subscribe") ids.push(message.id!);
    }),
  );
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, ids };
}

const sink = { next: () => undefined, error: () => undefined, complete: () => undefined };
const SUBSCRIPTION = "subscription($dialogId: ID!) { historyDelta(dialogId: $dialogId) { seq } }";

it("the client's subscriptions over graphql-ws are numbered 1, 2, … on their connection", async () => {
  const { url, ids } = await recordingServer();
  const ws = wsSubscriptions({ url, webSocketImpl: WebSocket });
  for (const dialogId of ["a", "b"]) ws.subscribe(parse(SUBSCRIPTION), { dialogId }, sink as never);
  await until(() => ids.length === 2, "both subscribes");
  expect(ids).toEqual(["1", "2"]);
  ws.dispose();
});

it("so are the urql client's", async () => {
  const { url, ids } = await recordingServer();
  const client = createDialogqlUrqlClient({ url: url.replace("ws", "http"), webSocketImpl: WebSocket });
  // Two dialogs: urql shares one subscription between identical operations.
  const subscriptions = ["a", "b"].map((dialogId) =>
    client.subscription(SUBSCRIPTION, { dialogId }).subscribe(() => undefined),
  );
  await until(() => ids.length === 2, "both subscribes");
  expect(ids).toEqual(["1", "2"]);
  for (const subscription of subscriptions) subscription.unsubscribe();
});
