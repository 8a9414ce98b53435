// One graphql-ws subscription with the protocol spoken directly (graphql-transport-ws): a full
// client state machine per socket would make a bench's viewer process, not the server, the
// bottleneck at thousands of subscribers.
import WebSocket from "ws";

/**
 * Opens `url`, subscribes with `query` and `variables` once acknowledged, and hands each `next`
 * payload's data to `onData`; errors are printed under `label`. Answers the socket.
 */
export function rawSubscription(
  url: string,
  subscription: { query: string; variables: Record<string, unknown> },
  onData: (data: any) => void,
  label: string,
): WebSocket {
  const socket = new WebSocket(url, "graphql-transport-ws");
  socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init" })));
  socket.on("message", (raw) => {
    const message = JSON.parse(raw.toString()) as { type: string; payload?: any };
    if (message.type === "connection_ack") {
      socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: subscription }));
    } else if (message.type === "next") {
      if (message.payload.errors) console.error(`[${label}]`, JSON.stringify(message.payload.errors));
      else onData(message.payload.data);
    } else if (message.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
  });
  socket.on("error", (error) => console.error(`[${label}]`, error.message));
  return socket;
}
