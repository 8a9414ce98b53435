// The network side: one HTTP server for the app's routes (src/server/routes.ts), and one WebSocket
// upgrade dispatcher on the same port: graphql-ws on /graphql, the Responses API's WebSocket mode
// on /v1/responses.
// Used by main.ts and by tests that need real sockets (port 0 picks a free one). The store and the
// configuration come in (see buildApp); the server closes what it made, never the store.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { Authenticator } from "../auth/authenticator.js";
import type { HistoryWrites } from "../history-writes/history-writes.js";
import { deltaCarriage } from "../live/delta-carriage.js";
import { createLiveBus, type LiveBus } from "../live/live-bus.js";
import { createResponsesWebSocket, RESPONSES_WEBSOCKET_PATH } from "../responses-api/websocket-mode.js";
import { type AppOptions, buildApp } from "./app.js";
import type { ConnectionPolicy } from "../connections/connection-policy.js";
import { GRAPHQL_PATH } from "./graphql-endpoint.js";
import { createGraphqlWs } from "./graphql-ws.js";
import { createDrain, keepAliveTimeoutFor } from "./shutdown.js";
import { paceUpgrades } from "../connections/upgrade-pacing.js";
import type { SubscriptionPacing } from "../connections/subscription-pacing.js";
import { listenForHealth } from "./health-listener.js";
import { healthSources } from "./operations-endpoints.js";
import type { TenantReads } from "../schema/request-budget.js";

// Connections the kernel holds for the server before it accepts them. Node's default (511) is
// overflowed by thousands of clients reconnecting at once while the event loop is busy: the
// kernel then drops their SYNs, and a load balancer's health check among them waits for its
// retransmission (1 s, then 3 s) and fails. Linux caps this at net.core.somaxconn (4096 here).
const LISTEN_BACKLOG = 8_192;

/** buildApp's options (store, config and overrides), and the network's. */
export interface ServerOptions extends Omit<AppOptions, "live"> {
  /** 0 picks a free one. */
  port: number;
  /** 127.0.0.1 when not given (main.ts passes HOST). */
  host?: string;
  /** Redis for the live fan-out between instances; REDIS_URL (or REDIS_CLUSTER_NODES) when not given, null for none. */
  redisUrl?: string | null;
  /** A Redis Cluster instead (`host:port,…`); REDIS_CLUSTER_NODES when neither this nor redisUrl is given. */
  redisClusterNodes?: string | null;
  /** A port of its own for /health and /ready (0 picks a free one, null none); HEALTH_PORT when not given. */
  healthPort?: number | null;
  /** Interval of WebSocket keep-alive pings, in ms. */
  keepAliveMs?: number;
  /** How long close() waits for requests in flight; from SHUTDOWN_DRAIN_MS when not given. */
  drainMs?: number;
  /** How long close() lets generated turns run on before stopping them; from SHUTDOWN_TURNS_MS when not given. */
  turnsMs?: number;
}

export interface RunningServer {
  /** http://host:port — GraphQL at /graphql, WebSocket at ws://host:port/graphql. */
  url: string;
  port: number;
  /** Where /health and /ready are also served on a listener of their own (null: not). */
  healthPort: number | null;
  live: LiveBus;
  /** The app's history writes (src/history-writes/): tests end idle responses and read in-flight text through them. */
  writes: HistoryWrites;
  authenticator: Authenticator;
  /** The long-lived connections' policy (counts, caps, unsent bytes, revocation). */
  connections: ConnectionPolicy;
  /** Subscriptions waiting for their turn to start, and starting (subscription-pacing.ts). */
  subscriptionStarts: Pick<SubscriptionPacing, "waiting" | "starting" | "startingOf">;
  /** Each tenant's database calls holding and waiting for its share of the pool (src/db/tenant-work.ts). */
  tenantReads: Pick<TenantReads, "active" | "waiting">;
  /**
   * Graceful (src/server/shutdown.ts): stops accepting (requests on kept-alive connections are
   * answered 503 SHUTTING_DOWN), ends every subscription (SSE streams send `complete`, WebSockets
   * close with 1001), lets requests and generated turns run on (turns for the turns time, then
   * stopped with their output kept), waits up to the drain time for every answer and connection,
   * then closes what is left and the live bus.
   */
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config } = options;
  const live = createLiveBus({
    ...(options.redisUrl === undefined && options.redisClusterNodes === undefined
      ? { redisUrl: config.REDIS_URL, redisClusterNodes: config.REDIS_CLUSTER_NODES }
      : { redisUrl: options.redisUrl, redisClusterNodes: options.redisClusterNodes }),
    redisCommandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    carriage: deltaCarriage(options.store),
  });
  // Commands sent before Redis is connected would fail fast and fall back to this process (the
  // in-flight text of a turn resumed right after a restart among them).
  await live.connected();
  // The server ends idle streaming responses; a bare app (tests) does not unless asked.
  const app = buildApp({ ...options, live, inFlight: { sweep: true, ...options.inFlight } });
  const { writes } = app.services;
  const host = options.host ?? "127.0.0.1";
  const server = createServer((request, response) =>
    // Long-lived ones (SSE) are admitted by the app's connection policy (connection-policy.ts).
    drain.handle(request, response, () => app.listener(request, response)),
  );
  const drainMs = options.drainMs ?? config.SHUTDOWN_DRAIN_MS;
  // Kept below the drain time, so a connection idle at shutdown closes by itself (shutdown.ts).
  server.keepAliveTimeout = keepAliveTimeoutFor(drainMs);
  const drain = createDrain(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port, host, backlog: LISTEN_BACKLOG }, () => resolve());
  }).catch(async (error: unknown) => {
    app.stop();
    await live.close();
    throw error;
  });
  const graphqlWs = createGraphqlWs(app, { keepAliveMs: options.keepAliveMs ?? 12_000 });
  const responsesWs = createResponsesWebSocket({
    ...app.services,
    authenticator: app.authenticator,
    rateLimiter: app.rateLimiter,
    connections: app.connections,
  });
  dispatchUpgrades(
    server,
    { [GRAPHQL_PATH]: graphqlWs.handleUpgrade, [RESPONSES_WEBSOCKET_PATH]: responsesWs.handleUpgrade },
    { perTick: app.services.limits.subscriptionStarts.upgradesPerTick, maxWaiting: app.connections.perInstance },
  );
  const { port } = server.address() as AddressInfo;
  const health = await healthListenerFor(options, live, host);

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host !== "0.0.0.0" ? host : "127.0.0.1"}:${port}`,
    port,
    healthPort: health?.port ?? null,
    live,
    writes,
    authenticator: app.authenticator,
    connections: app.connections,
    subscriptionStarts: app.subscriptionStarts,
    tenantReads: app.services.tenantReads,
    close: () =>
      (closing ??= (async () => {
        health?.draining();
        await drain.drain({
          drainMs,
          turnsMs: options.turnsMs ?? config.SHUTDOWN_TURNS_MS,
          turns: app.services.generator,
          endStreams: async () => {
            // Ending the listeners ends every subscription: SSE responses finish with `complete`.
            live.endListeners();
            await graphqlWs.dispose();
            responsesWs.close();
          },
        });
        app.stop();
        await health?.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await writes.handBackTexts();
        await live.close();
        // The MCP connections kept between turns (the turns are over).
        await app.services.generator.mcp.pool.close();
        // The spans of the last requests are sent before the process goes.
        await app.tracing?.shutdown();
      })()),
  };
}

/** HEALTH_PORT's listener (src/server/health-listener.ts), when the options or the config ask for one. */
function healthListenerFor(options: ServerOptions, live: LiveBus, host: string) {
  const port = options.healthPort === undefined ? options.config.HEALTH_PORT : options.healthPort;
  if (port == null) return null;
  const sources = healthSources({ database: async () => options.store.database, live });
  return listenForHealth(sources, { host, port, stallMs: options.config.HEALTH_STALL_MS });
}

type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => unknown;

/** Every WebSocket upgrade to the handler of its path; any other path is refused with 400, as ws refuses one. */
function dispatchUpgrades(
  server: Server,
  handlers: Record<string, UpgradeHandler>,
  pacing: { perTick: number; maxWaiting: number },
) {
  server.on(
    "upgrade",
    // Completed a few per turn of the event loop (src/connections/upgrade-pacing.ts).
    paceUpgrades(pacing, (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const handle = handlers[(request.url ?? "").split("?")[0]!];
      if (handle) return void handle(request, socket, head);
      socket.on("error", () => undefined);
      socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-type: text/plain\r\n\r\nBad Request");
    }),
  );
}
