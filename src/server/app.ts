// buildApp({ store, config }): the whole HTTP surface as one Yoga instance, used by the server and
// by tests (`app.fetch`). Everything it needs comes in: the store (src/store/store.ts) and the
// configuration (src/config.ts), so a test builds apps with other settings in one process. GraphQL and GraphiQL on /graphql (subscriptions over SSE here, and over
// graphql-ws once src/server/http-server.ts attaches a WebSocket server); the REST history
// endpoint as a Yoga plugin; the web viewer's static build on every other path. The protections
// sit here as plugins, so HTTP, SSE and WebSocket operations all pass through them: request ids,
// CSRF prevention, query limits, error masking.
import { blockFieldSuggestionsPlugin } from "@escape.tech/graphql-armor-block-field-suggestions";
import { useCSRFPrevention } from "@graphql-yoga/plugin-csrf-prevention";
import { useDisableIntrospection } from "@graphql-yoga/plugin-disable-introspection";
import { renderGraphiQL } from "@graphql-yoga/render-graphiql";
import { createYoga, type Plugin } from "graphql-yoga";
import type { Config } from "../config.js";
import { useAccessControl } from "../auth/access-control.js";
import { type AuthMode, createAuthenticator } from "../auth/authenticator.js";
import { createRateLimiter } from "../auth/rate-limit.js";
import { createTenantScopes } from "../auth/tenant-scope.js";
import { createHistoryWrites, type InFlightOptions, inFlightOptionsFrom } from "../history-writes/history-writes.js";
import { createLiveBus, type LiveBus } from "../live/live-bus.js";
import { createGenerator, type Generator } from "../generation/generate-turn.js";
import { checkBudgets } from "../services/budgets.js";
import { chargeModelCall } from "../store/usage.js";
import { createTracing, type Tracing } from "../tracing.js";
import { compactLedger } from "../store/usage.js";

/** How often the usage ledger's past days are compacted. */
const LEDGER_COMPACTION_MS = 15 * 60_000;
import { useTracing } from "./tracing-plugin.js";
import { createModelCatalog, type ModelCatalog } from "../generation/providers.js";
import { stopTurnsOnNotice } from "../generation/turn-cancel.js";
import { mcpSettingsFrom } from "../mcp/mcp-connection.js";
import { useConversationsApi } from "../responses-api/conversations.js";
import { useResponsesApi } from "../responses-api/responses-plugin.js";
import { useRestEndpoints } from "../rest/rest-plugin.js";
import { useSharedDialogs } from "../rest/shared-dialog.js";
import { schema } from "../schema/index.js";
import { useSharedSubscriptionResults } from "../live/shared-subscription-results.js";
import { createTenantReads } from "../schema/request-budget.js";
import { contextFactory } from "./context.js";
import { toRequestError, useErrorReporting } from "./error-reporting.js";
import { useEndSubscriptionOnFailedEvent } from "./failed-subscription-events.js";
import { exampleQuery } from "./graphiql-example.js";
import { type Limits, limitsFromConfig } from "../limits.js";
import { logger } from "../logger.js";
import { useWebViewer } from "./web-viewer.js";
import { useInputLimits } from "./input-limits.js";
import { useQueryLimits } from "./query-limits.js";
import { useOperationsEndpoints } from "./operations-endpoints.js";
import { useRequestId } from "../request-id.js";
import { useRequestLog } from "./request-log.js";
import { useStorableTextOnly } from "./storable-text.js";
import { useCompiledQueries } from "./compiled-queries.js";
import { createLargeAnswers } from "./large-answers.js";
import { createConnectionPolicy, useLongLivedConnections } from "../connections/connection-policy.js";
import { createSubscriptionPacing, useSubscriptionPacing } from "../connections/subscription-pacing.js";
import type { Store } from "../store/store.js";

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

export function buildApp(options: AppOptions) {
  const { store, config } = options;
  const live = options.live ?? createLiveBus();
  const limits = limitsFromConfig(config, options.limits);
  const introspection = options.introspection ?? config.INTROSPECTION;
  const authenticator = createAuthenticator({
    mode: options.auth ?? config.AUTH,
    store,
    live,
    revocationPollMs: options.revocationPollMs ?? config.REVOCATION_POLL_MS,
  });
  const rateLimiter = createRateLimiter({
    requests: limits.rateLimitRequests,
    windowSeconds: limits.rateLimitWindowSeconds,
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
  const services = { store, live, writes, tenants, generator, limits, tenantReads: createTenantReads() };
  const largeAnswers = createLargeAnswers(limits);
  const connections = createConnectionPolicy(limits, authenticator);
  const subscriptionStarts = createSubscriptionPacing(limits.subscriptionStarts);
  const graphiql = options.graphiql ?? config.GRAPHIQL;
  const yoga = createYoga({
    schema,
    context: contextFactory(services, largeAnswers),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    // /health (liveness, with what is degraded) and /ready are src/server/operations-endpoints.ts;
    // Yoga's own bare check stays on a path of its own, since it would answer /health first.
    healthCheckEndpoint: "/health/yoga",
    logging: yogaLogger,
    // GraphiQL's scripts and styles come inline from the npm package, not from a CDN: a
    // self-hosted service on a closed network must still show it.
    renderGraphiQL,
    graphiql: graphiql && { title: "dialogql", defaultQuery: exampleQuery },
    cors: corsOptions(config.CORS_ORIGINS),
    maxRequestBodySize: limits.bodyBytes,
    // The last line of defence, for errors outside execution (useErrorReporting handles the rest,
    // with the request id).
    maskedErrors: { maskError: toRequestError },
    plugins: [
      useRequestId(),
      useRequestLog(),
      useTracing(tracing),
      useOperationsEndpoints({ database: async () => store.database, live }),
      useWebViewer({ apiPaths: ["/graphql", "/api/", "/v1/"], settings: { graphiql } }),
      // A share link's token is its own credential: read before any API key is asked for.
      useSharedDialogs(store, live),
      useAccessControl({ authenticator, rateLimiter, limits, graphqlEndpoint: "/graphql" }),
      useLongLivedConnections(connections),
      useSubscriptionPacing(subscriptionStarts),
      useRestEndpoints(store),
      useConversationsApi(services),
      useResponsesApi(services),
      // Browsers send a cross-site form or a plain GET without a preflight; requiring a JSON body
      // or a header they cannot add cross-site (Authorization included) stops such requests.
      useCSRFPrevention({ requestHeaders: ["x-graphql-yoga-csrf", "authorization"] }),
      ...(introspection ? [] : [useDisableIntrospection(), blockFieldSuggestionsPlugin() as Plugin]),
      ...useQueryLimits(limits),
      useStorableTextOnly(),
      useInputLimits(store.writeLimits.eventBytes),
      useErrorReporting(),
      useEndSubscriptionOnFailedEvent(),
      useSharedSubscriptionResults(),
      useCompiledQueries(),
      largeAnswers.plugin(),
    ],
  });

  // Past days' ledger shards are folded into one row each (src/store/usage.ts), so reports stay small.
  const compactLedgerNow = () =>
    void compactLedger(store.database).catch((error: Error) =>
      logger.warn(`ledger compaction failed: ${error.message}`),
    );
  const ledgerCompaction = setInterval(compactLedgerNow, LEDGER_COMPACTION_MS);
  ledgerCompaction.unref();

  /** Ends the app's timers (revocation poll, idle sweep, slow-reader watch); the store and the live bus stay open. */
  const stop = () => {
    authenticator.close();
    connections.close();
    writes.close();
    clearInterval(ledgerCompaction);
  };
  return Object.assign(yoga, {
    ...services,
    config,
    authenticator,
    rateLimiter,
    connections,
    subscriptionStarts,
    tracing,
    stop,
  });
}

export type App = ReturnType<typeof buildApp>;

// Yoga logs every error it masks; a request that is not JSON is the client's mistake (answered
// 400 by toRequestError), not worth an error line.
const yogaLogger = {
  debug: (...args: unknown[]) => logger.debug(...(args as [unknown])),
  info: (...args: unknown[]) => logger.info(...(args as [unknown])),
  warn: (...args: unknown[]) => logger.warn(...(args as [unknown])),
  error: (...args: unknown[]) => (args[0] instanceof SyntaxError ? logger.debug : logger.error)(...(args as [unknown])),
};

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
