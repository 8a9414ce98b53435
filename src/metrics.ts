// The Prometheus registry served at /metrics, and the instruments the rest of the code records
// into. Add an instrument here (with `registers: [registry]`) and record it where the thing
// happens; names start with `dialogql_`. Labels stay few and bounded: never an id.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { onStatement } from "./db/statement-log.js";

export const registry = new Registry();
// Process figures (CPU, memory, event-loop lag, open handles).
collectDefaultMetrics({ register: registry, prefix: "dialogql_" });

const registers = [registry];

export const metrics = {
  httpRequests: new Counter({
    name: "dialogql_http_requests_total",
    help: "HTTP requests answered, by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    registers,
  }),
  httpDuration: new Histogram({
    name: "dialogql_http_request_duration_seconds",
    help: "Time from an HTTP request's arrival to its response headers, by method and route",
    labelNames: ["method", "route"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  }),
  graphqlOperations: new Counter({
    name: "dialogql_graphql_operations_total",
    help: "GraphQL operations executed (HTTP, SSE and WebSocket), by operation type",
    labelNames: ["type"] as const,
    registers,
  }),
  activeSubscriptions: new Gauge({
    name: "dialogql_active_subscriptions",
    help: "GraphQL subscriptions open now (SSE and WebSocket)",
    registers,
  }),
  deltasPublished: new Counter({
    name: "dialogql_history_deltas_published_total",
    help: "History deltas published after a committed write",
    registers,
  }),
  statementDuration: new Histogram({
    name: "dialogql_db_statement_duration_seconds",
    help: "SQL statements (through Prisma and the raw fast paths), by kind: read or write",
    labelNames: ["kind"] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
    registers,
  }),
};

/** SELECT, SHOW, or a WITH query that changes nothing. */
const isRead = (sql: string) =>
  /^\s*(select|show)\b/i.test(sql) || (/^\s*with\b/i.test(sql) && !/\b(insert|update|delete)\b/i.test(sql));
onStatement((sql, durationMs) =>
  metrics.statementDuration.observe({ kind: isRead(sql) ? "read" : "write" }, durationMs / 1000),
);

/** A request path as a bounded label: known routes by name, the rest as "viewer" or "other". */
export function routeOf(pathname: string, method: string): string {
  if (pathname === "/graphql" || pathname === "/health" || pathname === "/ready" || pathname === "/metrics")
    return pathname;
  if (/^\/api\/dialogs\/[^/]+\/history$/.test(pathname)) return "/api/dialogs/:id/history";
  if (pathname.startsWith("/api/")) return "/api/other";
  if (pathname.startsWith("/v1/")) return "/v1";
  return method === "GET" || method === "HEAD" ? "viewer" : "other";
}
