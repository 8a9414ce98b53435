// Graceful shutdown of the HTTP side. On close: stop accepting connections; answer any request that
// arrives on a kept-alive connection 503 SHUTTING_DOWN (refused before it started: the client
// retries elsewhere, with its idempotency key for a write); end live subscriptions so SSE streams
// send `complete` and WebSockets close with 1001; wait for the requests in flight (writes among
// them) to finish and be acknowledged, at most `drainMs`; then close what is left.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";
import { logger } from "../logger.js";

export const SHUTTING_DOWN = "SHUTTING_DOWN";
const LAST_ARRIVALS_MS = 250;

export function createDrain() {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  let onIdle: (() => void) | null = null;

  return {
    /** Wraps the request handler: refuses new requests while draining, counts the ones in flight. */
    handle(request: IncomingMessage, response: ServerResponse, next: () => unknown) {
      if (draining) return refuse(response);
      // An SSE stream lasts as long as its subscription; those are ended, not waited for.
      if (!request.headers.accept?.includes("text/event-stream")) {
        inFlight.add(response);
        response.once("close", () => {
          inFlight.delete(response);
          if (inFlight.size === 0) onIdle?.();
        });
      }
      return next();
    },

    /**
     * Stops accepting and runs `endStreams`, then waits (at most `drainMs`) for the requests in
     * flight. Resolves with how many were still running when the time ran out.
     */
    async drain(server: Server, drainMs: number, endStreams: () => Promise<void>): Promise<number> {
      draining = true;
      // net.Server's close, not http.Server's: the latter also drops idle kept-alive connections,
      // and a request a client is sending on one at that moment would be reset instead of refused.
      NetServer.prototype.close.call(server);
      // Answers still to come say the connection closes after them, so no client sends another
      // request on it just as it is closed.
      for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
      await endStreams();
      if (inFlight.size > 0) {
        logger.info(`shutdown: waiting up to ${drainMs} ms for ${inFlight.size} requests in flight`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, drainMs);
          onIdle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      if (inFlight.size > 0)
        logger.warn(`shutdown: ${inFlight.size} requests still running after ${drainMs} ms; closing their connections`);
      // A client that got its answer just before the drain began may be sending its next request
      // on the same kept-alive connection right now: a moment more lets that request arrive and be
      // refused (503, connection: close) rather than be cut off when the connections close.
      else await new Promise((resolve) => setTimeout(resolve, Math.min(LAST_ARRIVALS_MS, drainMs)));
      return inFlight.size;
    },
  };
}

function refuse(response: ServerResponse) {
  const body = JSON.stringify({
    errors: [
      {
        message: "The server is shutting down; retry the request (another instance will take it)",
        extensions: { code: SHUTTING_DOWN },
      },
    ],
  });
  response.writeHead(503, { "content-type": "application/json", connection: "close", "retry-after": "1" });
  response.end(body);
}
