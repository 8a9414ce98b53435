// buildApp({ store, config }): the whole HTTP surface, used by the server and by tests
// (`app.fetch`). Everything it needs comes in: the store (src/store/store.ts) and the configuration
// (src/config.ts), so a test builds apps with other settings in one process. In front is a small
// server (@whatwg-node/server's adapter, which Yoga itself is built on): every request passes its
// plugins (CORS, request ids, the request log, tracing), and its router (src/server/routes.ts)
// sends each one to its route: Yoga for /graphql only (src/server/graphql-endpoint.ts), the REST
// endpoints, /v1, share links, the operations endpoints and the web viewer.
import { createServerAdapter, useCORS } from "@whatwg-node/server";
import type { RequestListener } from "node:http";
import type { Config } from "../config.js";
import { type AuthMode, type Authenticator, createAuthenticator } from "../auth/authenticator.js";
import { createRateLimiter, type RateLimiter } from "../auth/rate-limit.js";
import { createTenantScopes } from "../auth/tenant-scope.js";
import { type ConnectionPolicy, createConnectionPolicy } from "../connections/connection-policy.js";
import { createSubscriptionPacing, type SubscriptionPacing } from "../connections/subscription-pacing.js";
import { createGenerator, type Generator } from "../generation/generate-turn.js";
import { createModelCatalog, type ModelCatalog } from "../generation/providers.js";
import { createHistoryWrites, type InFlightOptions, inFlightOptionsFrom } from "../history-writes/history-writes.js";
import { runAsTenantWork } from "../db/tenant-work.js";
import { type Limits, limitsFromConfig } from "../limits.js";
import { createLiveBus, type LiveBus } from "../live/live-bus.js";
import { logger } from "../logger.js";
import { stopTurnsOnNotice } from "../generation/turn-cancel.js";
import { mcpSettingsFrom } from "../mcp/mcp-pool.js";
import { useRequestId } from "../request-id.js";
import type { AppServices } from "../schema/context.js";
import { createTenantReads } from "../schema/request-budget.js";
import { checkBudgets } from "../services/budgets.js";
import type { Store } from "../store/store.js";
import { chargeModelCall, compactLedger } from "../store/usage.js";
import { createTracing, type Tracing } from "../tracing.js";
import type { ServerContext } from "./context.js";
import { createGraphqlEndpoint, type GraphqlEndpoint } from "./graphql-endpoint.js";
import { createLargeAnswers } from "./large-answers.js";
import { useRequestLog } from "./request-log.js";
import { createRequestHandler } from "./routes.js";
import { useTracing } from "./tracing-plugin.js";

/** How often the usage ledger's past days are compacted. */
const LEDGER_COMPACTION_MS = 15 * 60_000;

export interface AppOptions {
  /** Where dialogs are kept (openStore(config)); the app never closes it. */
  store: Store;
  /** The settings; `loadConfig(env)`. The options below override parts of it. */
  config: Config;
  /** Where mutations publish and subscriptions listen; in-process when not given. */
  live?: LiveBus;
  /** Abuse limits; from the configuration when not given. */
  limits?: Partial<Limits>;
  /** GraphiQL and introspection; from the configuration (off in production) when not given. */
  graphiql?: boolean;
  introspection?: boolean;
  /** `auto` or `required`; from AUTH when not given. */
  auth?: AuthMode;
  /** The model providers /v1/responses and generateResponse use; from the configuration when not given. */
  models?: ModelCatalog;
  /** In-flight text settings (clock, checkpoint bounds, idle sweep); from the configuration when not given. */
  inFlight?: Partial<InFlightOptions>;
  /** Where spans go; from OTEL_EXPORTER_OTLP_ENDPOINT when not given (null: no traces). */
  tracing?: Tracing | null;
  /** How often revocations are read from the database (they also arrive at once through the live
   * bus); from REVOCATION_POLL_MS when not given. */
  revocationPollMs?: number;
}

/** What buildApp makes: the HTTP surface (as a Fetch handler and a Node listener) and the parts behind it. */
export interface App {
  /** Answers a request as the server would, with no socket: tests send requests through it. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The same, for node:http (src/server/http-server.ts). */
  listener: RequestListener;
  /** GraphQL on /graphql; graphql-ws runs its operations through `yoga.getEnveloped`. */
  yoga: GraphqlEndpoint;
  services: AppServices;
  config: Config;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  /** The long-lived connections' policy (counts, caps, unsent bytes, revocation). */
  connections: ConnectionPolicy;
  /** Subscription starts taken a few per event-loop tick (src/connections/subscription-pacing.ts). */
  subscriptionStarts: SubscriptionPacing;
  tracing: Tracing | null;
  /** Ends the app's timers (revocation poll, idle sweep, slow-reader watch); the store and the live bus stay open. */
  stop(): void;
}

export function buildApp(options: AppOptions): App {
  const { store, config } = options;
  const live = options.live ?? createLiveBus();
  const limits = limitsFromConfig(config, options.limits);
  const authenticator = createAuthenticator({
    mode: options.auth ?? config.AUTH,
    store,
    live,
    revocationPollMs: options.revocationPollMs ?? config.REVOCATION_POLL_MS,
  });
  const rateLimiter = createRateLimiter({
    requests: limits.rateLimitRequests,
    windowSeconds: limits.rateLimitWindowSeconds,
    burstSeconds: limits.rateLimitBurstSeconds,
    redis: live.redis,
  });
  const tracing = options.tracing === undefined ? tracingFromConfig(config) : options.tracing;
  const generator: Generator = createGenerator({
    models: options.models ?? createModelCatalog(config),
    admit: (caller) => checkBudgets(store, caller),
    charge: (call) => chargeModelCall(store, { ...call, responses: 0 }),
    tracing,
    mcp: mcpSettingsFrom(config),
  });
  // `cancel` received by another instance reaches the turn wherever it runs.
  stopTurnsOnNotice(generator, live);
  const writes = createHistoryWrites(store, live, { ...inFlightOptionsFrom(config), ...options.inFlight });
  const tenants = createTenantScopes(store);
  const services = {
    store,
    live,
    writes,
    tenants,
    generator,
    limits,
    tenantReads: createTenantReads({ maxWaiting: limits.tenantDbQueue }),
  };
  const connections = createConnectionPolicy(limits, authenticator);
  const subscriptionStarts = createSubscriptionPacing(limits.subscriptionStarts);
  const graphiql = options.graphiql ?? config.GRAPHIQL;
  const yoga = createGraphqlEndpoint(services, {
    graphiql,
    introspection: options.introspection ?? config.INTROSPECTION,
    largeAnswers: createLargeAnswers(limits),
    subscriptionStarts,
  });
  const cors = corsOptions(config.CORS_ORIGINS);
  const front = createServerAdapter<ServerContext>(
    createRequestHandler({ services, yoga, authenticator, rateLimiter, connections, viewer: { graphiql } }),
    // CORS first: a preflight is answered before anything else runs, as Yoga answered it.
    {
      plugins: [...(cors ? [useCORS<ServerContext>(cors)] : []), useRequestId(), useRequestLog(), useTracing(tracing)],
    },
  );

  // Past days' ledger shards are folded into one row each (src/store/usage.ts), so reports stay small.
  const compactLedgerNow = () =>
    void compactLedger(store.database).catch((error: Error) =>
      logger.warn(`ledger compaction failed: ${error.message}`),
    );
  const ledgerCompaction = setInterval(compactLedgerNow, LEDGER_COMPACTION_MS);
  ledgerCompaction.unref();

  // Each request is one tenant's work once access control knows its caller (src/db/tenant-work.ts):
  // its database calls, however deep (its subscriptions' deliveries, its turns), take its share.
  const work = () => ({ tenantId: undefined, share: services.tenantReads, concurrency: limits.tenantDbConcurrency });
  return {
    fetch: async (input, init) => runAsTenantWork(work(), () => front.fetch(input as string, init ?? {})),
    listener: (request, response) => runAsTenantWork(work(), () => front.requestListener(request, response)),
    yoga,
    services,
    config,
    authenticator,
    rateLimiter,
    connections,
    subscriptionStarts,
    tracing,
    stop() {
      authenticator.close();
      connections.close();
      writes.close();
      clearInterval(ledgerCompaction);
    },
  };
}

/** Same-origin pages always work; other origins only when CORS_ORIGINS lists them (or is *). */
function corsOptions(origins: string) {
  const list = origins
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (!list.length) return false;
  return { origin: list.includes("*") ? "*" : list, credentials: false };
}

function tracingFromConfig(config: Config): Tracing | null {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  return createTracing({
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: config.OTEL_SERVICE_NAME,
    scheduledDelayMs: config.OTEL_BSP_SCHEDULE_DELAY,
    captureContent: config.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT ?? false,
  });
}
