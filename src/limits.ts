// The abuse limits of one app, from its configuration unless a caller (a test) says otherwise. Used
// by the transport (src/server) and by access control (src/auth), so it sits beside config.ts.
// The per-write limits (MAX_EVENTS_PER_WRITE, MAX_EVENT_BYTES) are the store's (`store.writeLimits`,
// src/store/store.ts), checked by the write validation in src/services/event-input.ts.
import type { Config } from "./config.js";

export interface Limits {
  /** Largest HTTP request body and WebSocket message, in bytes. */
  bodyBytes: number;
  queryDepth: number;
  queryAliases: number;
  queryTokens: number;
  queryCost: number;
  subscriptionsPerConnection: number;
  /** Requests per API key per window; 0 switches rate limiting off. */
  rateLimitRequests: number;
  rateLimitWindowSeconds: number;
  /** The span over which a key may spend at most its share of the window; 0: no short limit. */
  rateLimitBurstSeconds: number;
  wsConnectionInitTimeoutMs: number;
  slowSubscriberTimeoutMs: number;
  /** What one request may read while executing (src/server/request-budget.ts). */
  requestRows: number;
  requestBytes: number;
  requestMs: number;
  /** Reads one tenant may run at once (event reads, subscription start-ups): its share of the pool. */
  tenantDbConcurrency: number;
  /** Reads one tenant may have waiting for its share; more are refused with TENANT_BUSY. */
  tenantDbQueue: number;
  /** A read of this many rows makes its request a large answer, which waits for one of
   * `largeAnswersAtOnce` turns (src/server/large-answers.ts). */
  largeAnswerRows: number;
  largeAnswersAtOnce: number;
  /** Open long-lived connections (graphql-ws, SSE, Responses WebSocket mode) per API key, per
   * tenant and per instance (src/connections/connection-policy.ts); the instance's from the process's
   * file-descriptor limit when undefined. */
  connectionsPerKey: number;
  connectionsPerTenant: number;
  connectionsPerInstance: number | undefined;
  /** Unsent bytes a subscription connection may have before it is dropped. */
  queuedBytesPerConnection: number;
  /** How subscriptions start: per turn of the event loop, at once, waiting at most
   * (src/connections/subscription-pacing.ts); WebSocket upgrades completed per turn
   * (src/connections/upgrade-pacing.ts). */
  subscriptionStarts: {
    perTick: number;
    maxStarting: number;
    /** Of `maxStarting`, what one tenant's subscriptions may hold at once. */
    maxStartingPerTenant: number;
    maxWaiting: number;
    upgradesPerTick: number;
  };
}

export function limitsFromConfig(config: Config, overrides: Partial<Limits> = {}): Limits {
  return {
    bodyBytes: config.MAX_BODY_BYTES,
    queryDepth: config.MAX_QUERY_DEPTH,
    queryAliases: config.MAX_QUERY_ALIASES,
    queryTokens: config.MAX_QUERY_TOKENS,
    queryCost: config.MAX_QUERY_COST,
    subscriptionsPerConnection: config.MAX_SUBSCRIPTIONS_PER_CONNECTION,
    rateLimitRequests: config.RATE_LIMIT_REQUESTS,
    rateLimitWindowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    rateLimitBurstSeconds: config.RATE_LIMIT_BURST_SECONDS,
    wsConnectionInitTimeoutMs: config.WS_CONNECTION_INIT_TIMEOUT_MS,
    slowSubscriberTimeoutMs: config.SLOW_SUBSCRIBER_TIMEOUT_MS,
    requestRows: config.MAX_REQUEST_ROWS,
    requestBytes: config.MAX_REQUEST_BYTES,
    requestMs: config.MAX_REQUEST_MS,
    connectionsPerKey: config.MAX_CONNECTIONS_PER_KEY,
    connectionsPerTenant: config.MAX_CONNECTIONS_PER_TENANT,
    connectionsPerInstance: config.MAX_CONNECTIONS_PER_INSTANCE,
    queuedBytesPerConnection: config.MAX_QUEUED_BYTES_PER_CONNECTION,
    subscriptionStarts: {
      perTick: config.SUBSCRIPTION_STARTS_PER_TICK,
      maxStarting: config.MAX_SUBSCRIPTIONS_STARTING,
      maxStartingPerTenant:
        config.MAX_SUBSCRIPTIONS_STARTING_PER_TENANT ?? Math.max(1, Math.floor(config.MAX_SUBSCRIPTIONS_STARTING / 2)),
      maxWaiting: config.MAX_SUBSCRIPTIONS_WAITING,
      upgradesPerTick: config.WEBSOCKET_UPGRADES_PER_TICK,
    },
    tenantDbConcurrency: config.TENANT_DB_CONCURRENCY ?? Math.max(1, Math.floor(config.DATABASE_POOL_SIZE / 2)),
    tenantDbQueue: config.TENANT_DB_QUEUE,
    largeAnswerRows: 1_000,
    largeAnswersAtOnce: 1,
    ...overrides,
  };
}
