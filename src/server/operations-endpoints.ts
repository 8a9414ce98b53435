// The endpoints a supervisor and a monitoring system use, outside the API (no key needed):
//   GET /health   200 while the process serves requests (liveness: restart me if this fails), with
//                 `status: "degraded"` and what is missing while Redis (if configured) is away
//   GET /ready    200 when the database answers and migrations are applied, 503 with the failing
//                 checks otherwise (readiness: route to me); Redis away is `degraded`, still 200
//                 (src/server/readiness.ts says why)
//   GET /metrics  Prometheus text format (src/metrics.ts)
import type { Database } from "../db/database.js";
import type { LiveBus } from "../live/live-bus.js";
import { registry } from "../metrics.js";
import type { HealthAnswer, HealthSources } from "./health-listener.js";
import { checkHealth, checkReadiness } from "./readiness.js";

const json = ({ body, status }: HealthAnswer) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });

interface OperationsSources {
  database: () => Promise<Database>;
  live: LiveBus;
}

/** What /health and /ready answer, on PORT and on HEALTH_PORT (src/server/health-listener.ts). */
export function healthSources(options: OperationsSources): HealthSources {
  return {
    health: () => ({ status: 200, body: checkHealth(options.live) }),
    async ready() {
      const readiness = await checkReadiness(await options.database(), options.live);
      const status = !readiness.ready ? "not ready" : readiness.degraded.length ? "degraded" : "ready";
      return { status: readiness.ready ? 200 : 503, body: { status, ...readiness } };
    },
  };
}

/** The three endpoints' handlers, for the router's table (GET and HEAD only). */
export function operationsEndpoints(options: OperationsSources) {
  const answers = healthSources(options);
  return {
    health: () => json(answers.health()),
    ready: async () => json(await answers.ready()),
    metrics: async () => new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } }),
  };
}
