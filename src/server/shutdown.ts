// Graceful shutdown of the HTTP side, in a fixed order with configured deadlines:
// 1. stop accepting connections; a request that arrives on a kept-alive connection is answered 503
//    SHUTTING_DOWN (refused before it started: the client retries elsewhere, with its idempotency
//    key for a write), and every answer from now on closes its connection;
// 2. end live subscriptions (SSE streams send `complete`, WebSockets close with 1001);
// 3. let requests in flight and the turns this process generates run on, for `turnsMs`;
// 4. stop the turns still running: each ends INCOMPLETE with its output so far, stored, and the
//    request waiting for it answers with that (an id and what was kept, not a cut connection);
// 5. wait for the requests in flight to be answered and for every connection to close, until
//    `drainMs` after the start; then the caller closes what is left.
// No step is a timing guess: a connection idle when the drain starts is closed by its own
// keep-alive timeout, which the server keeps below the drain time (keepAliveTimeoutFor) and which
// clients are told in `Keep-Alive: timeout=…`, so a client that follows it never sends a request
// on a connection as it closes; one that sends before that is answered 503 as in step 1.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import { logger } from "../logger.js";

export const SHUTTING_DOWN = "SHUTTING_DOWN";

/** What the drain waits for besides requests: the turns this process generates. */
export interface RunningTurns {
  readonly running: number;
  whenIdle(): Promise<void>;
  stopAll(): Promise<void>;
}

export interface DrainSteps {
  /** Step 2: ends every subscription. */
  endStreams(): Promise<void>;
  turns: RunningTurns;
  /** Step 3's bound: how long turns run on before they are stopped (at most drainMs). */
  turnsMs: number;
  /** The whole drain's bound. */
  drainMs: number;
}

/**
 * The keep-alive timeout the server promises clients: Node's 5 s, but no more than half the drain
 * time, so every connection idle when the drain starts has closed by itself before it ends. Never
 * under 3 s: clients stop using a connection some time before the promised end (undici 2 s, Node's
 * Agent 1 s), so a shorter promise makes them open a connection per request — and a connection
 * being opened as the listener closes is reset, where a request on a kept-alive one is answered 503.
 */
export const keepAliveTimeoutFor = (drainMs: number) => Math.min(5_000, Math.max(3_000, Math.floor(drainMs / 2)));

export function createDrain(server: Server) {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const connections = new Set<Socket>();
  // Whoever waits re-checks its condition whenever a request is answered or a connection closes.
  let changed: () => void = () => undefined;
  const notify = () => changed();
  server.on("connection", (socket: Socket) => {
    connections.add(socket);
    socket.once("close", () => {
      connections.delete(socket);
      notify();
    });
  });

  /** Resolves once `done()` holds, or at `deadline` (ms since the epoch); true when it holds. */
  const until = (done: () => boolean, deadline: number) =>
    new Promise<boolean>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        changed = () => undefined;
        resolve(done());
      };
      const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
      changed = () => done() && finish();
      changed();
    });

  return {
    /** Wraps the request handler: refuses new requests while draining, counts the ones in flight. */
    handle(request: IncomingMessage, response: ServerResponse, next: () => unknown) {
      if (draining) return refuse(response);
      // An SSE stream lasts as long as its subscription; those are ended, not waited for.
      if (!request.headers.accept?.includes("text/event-stream")) {
        inFlight.add(response);
        response.once("close", () => {
          inFlight.delete(response);
          notify();
        });
      }
      return next();
    },

    /** Runs the steps above; resolves with how many requests were still running at the end. */
    async drain({ endStreams, turns, turnsMs, drainMs }: DrainSteps): Promise<number> {
      const started = Date.now();
      draining = true;
      // net.Server's close, not http.Server's: the latter also drops idle kept-alive connections,
      // and a request a client is sending on one at that moment would be reset instead of refused.
      NetServer.prototype.close.call(server);
      for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
      await endStreams();

      void turns.whenIdle().then(notify);
      if (!(await until(() => turns.running === 0, started + Math.min(turnsMs, drainMs)))) {
        logger.warn(`shutdown: stopping ${turns.running} turns still running; each keeps its output so far`);
        void turns.stopAll().then(notify);
      }
      if (inFlight.size > 0) logger.info(`shutdown: waiting for ${inFlight.size} requests in flight`);
      const drained = () => inFlight.size === 0 && connections.size === 0 && turns.running === 0;
      await until(drained, started + drainMs);
      if (inFlight.size > 0)
        logger.warn(`shutdown: ${inFlight.size} requests still running after ${drainMs} ms; closing their connections`);
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
