// The endpoints a supervisor and a monitoring system use, outside the API (no key needed):
//   GET /health   200 while the process serves requests (liveness: restart me if this fails), with
//                 `status: "degraded"` and what is missing while Redis (if configured) is away
//   GET /ready    200 when the database answers and migrations are applied, 503 with the failing
//                 checks otherwise (readiness: route to me); Redis away is `degraded`, still 200
//                 (src/server/readiness.ts says why)
//   GET /metrics  Prometheus text format (src/metrics.ts)
import type { Plugin } from "graphql-yoga";
import type { Database } from "../db/database.js";
import type { LiveBus } from "../live/live-bus.js";
import { registry } from "../metrics.js";
import { checkHealth, checkReadiness } from "./readiness.js";

const PATHS = ["/health", "/ready", "/metrics"];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });

export function useOperationsEndpoints(options: { database: () => Promise<Database>; live: LiveBus }): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (!PATHS.includes(url.pathname)) return;
      if (request.method !== "GET" && request.method !== "HEAD") {
        return endResponse(new Response("Method not allowed", { status: 405, headers: { allow: "GET, HEAD" } }));
      }
      if (url.pathname === "/health") return endResponse(json(checkHealth(options.live)));
      if (url.pathname === "/ready") {
        const readiness = await checkReadiness(await options.database(), options.live);
        const status = !readiness.ready ? "not ready" : readiness.degraded.length ? "degraded" : "ready";
        return endResponse(json({ status, ...readiness }, readiness.ready ? 200 : 503));
      }
      endResponse(new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } }));
    },
  };
}
