// `/health` and `/ready` on a listening socket of their own (HEALTH_PORT), for the load balancer's
// checks. A check opens a new connection each time, and on the main port a new connection waits
// behind every connection that arrived before it: during a connect storm (thousands of WebSocket
// clients at once, the clients of an instance that died) `/health` on a new connection timed out
// (2 s) for most checks while the event loop was free — a kept-alive connection to the same port,
// or a new one to another listening socket of the same process, was answered within half a second
// (docs/scaling.md) — and the load balancer ejected healthy instances. Nothing else is served here.
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const PATHS = new Set(["/health", "/ready"]);

export interface HealthListener {
  port: number;
  close(): Promise<void>;
}

/** Listens on `port` (0: a free one) and answers GET /health and /ready with `listener`; 404 otherwise. */
export async function listenForHealth(listener: RequestListener, host: string, port: number): Promise<HealthListener> {
  const server: Server = createServer((request, response) => {
    if (PATHS.has((request.url ?? "").split("?")[0]!)) return void listener(request, response);
    response.writeHead(404, { "content-type": "text/plain" }).end("Only /health and /ready are served on this port");
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host }, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
