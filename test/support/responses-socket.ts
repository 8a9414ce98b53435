// The Responses API's WebSocket mode as a client sees it: a real `ws` socket on /v1/responses
// with the caller's key, and one turn's messages sent as `response.create`.
import WebSocket from "ws";
import type { RunningServer } from "../../src/server/http-server.js";
import { atEveryFileEnd } from "./file-scope.js";

const open = new Set<WebSocket>();
atEveryFileEnd(() => {
  for (const socket of open) socket.close();
  open.clear();
});

/** A WebSocket-mode message as these checks read it: its type and number, and the resource it carries. */
export interface SocketEvent {
  type: string;
  sequence_number: number;
  response: { id: string; status: string; previous_response_id?: string | null; [field: string]: unknown };
  [field: string]: unknown;
}

/** An open socket on the server's /v1/responses, sending `key` at the upgrade. */
export async function responsesSocket(server: RunningServer, key: string) {
  const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/v1/responses`, {
    headers: { authorization: `Bearer ${key}` },
  });
  open.add(socket);
  socket.once("close", () => open.delete(socket));
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  return socket;
}

/** The messages of one turn on an open socket, through its closing event (or an error). */
export function socketTurn(socket: WebSocket, request: object) {
  return new Promise<SocketEvent[]>((resolve) => {
    const events: SocketEvent[] = [];
    const onMessage = (data: WebSocket.RawData) => {
      const event = JSON.parse(String(data)) as SocketEvent;
      events.push(event);
      if (event.type === "error" || /^response\.(completed|failed|incomplete)$/.test(event.type)) {
        socket.off("message", onMessage);
        resolve(events);
      }
    };
    socket.on("message", onMessage);
    socket.send(JSON.stringify({ type: "response.create", ...request }));
  });
}
