// The abuse limits of one server, from the configuration unless a caller (a test) says otherwise.
// The per-write limits (MAX_EVENTS_PER_WRITE, MAX_EVENT_BYTES) live with the write validation in
// src/services/event-input.ts.
import { config } from "../config.js";

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
  wsConnectionInitTimeoutMs: number;
  slowSubscriberTimeoutMs: number;
}

export function limitsFromConfig(overrides: Partial<Limits> = {}): Limits {
  return {
    bodyBytes: config.MAX_BODY_BYTES,
    queryDepth: config.MAX_QUERY_DEPTH,
    queryAliases: config.MAX_QUERY_ALIASES,
    queryTokens: config.MAX_QUERY_TOKENS,
    queryCost: config.MAX_QUERY_COST,
    subscriptionsPerConnection: config.MAX_SUBSCRIPTIONS_PER_CONNECTION,
    rateLimitRequests: config.RATE_LIMIT_REQUESTS,
    rateLimitWindowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    wsConnectionInitTimeoutMs: config.WS_CONNECTION_INIT_TIMEOUT_MS,
    slowSubscriberTimeoutMs: config.SLOW_SUBSCRIBER_TIMEOUT_MS,
    ...overrides,
  };
}
