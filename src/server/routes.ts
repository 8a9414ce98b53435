// The routes of the HTTP server, tried in this order (src/server/router.ts matches them):
//   GET /health, /ready, /metrics        operations, no key (src/server/operations-endpoints.ts)
//   GET /api/shared/:token[/live]        a share link's view: the token is the credential
//   *   /graphql                         Yoga: GraphQL, SSE subscriptions, GraphiQL's page
//   *   /api/*                           the REST endpoints (src/rest/rest-routes.ts)
//   *   /v1/*                            the OpenAI- and Anthropic-shaped API (src/responses-api/api-routes.ts)
//   GET anything else                    the web viewer's static build (src/server/web-viewer.ts)
// /graphql, /api and /v1 are the API: a request there is identified (API key, rate limit) at its
// route, before its handler runs, and a long-lived one (SSE) admitted by the connection policy.
import type { RateLimiter } from "../auth/rate-limit.js";
import { admitRequest } from "../auth/access-control.js";
import type { Authenticator, Viewer } from "../auth/authenticator.js";
import { type ConnectionPolicy, refuseEventStream } from "../connections/connection-policy.js";
import { claimTenant } from "../db/tenant-work.js";
import { logger } from "../logger.js";
import { requestIdOf } from "../request-id.js";
import { answerApiRequest, apiRoutes, noApiRoute } from "../responses-api/api-routes.js";
import { answerRestRequest, noRestRoute, restRoutes } from "../rest/rest-routes.js";
import { sharedDialogRoute } from "../rest/shared-dialog.js";
import type { AppServices } from "../schema/context.js";
import type { ServerContext } from "./context.js";
import { GRAPHQL_PATH, type GraphqlEndpoint } from "./graphql-endpoint.js";
import { operationsEndpoints } from "./operations-endpoints.js";
import { createRouter, type Params, type Route, urlOf } from "./router.js";
import { DEFAULT_VIEWER_ROOT, serveViewer, type ViewerSettings } from "./web-viewer.js";

type Handler = (request: Request, url: URL, params: Params, server: ServerContext) => Promise<Response> | Response;

export interface RouteDeps {
  services: AppServices;
  yoga: GraphqlEndpoint;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  connections: ConnectionPolicy;
  /** What the viewer's page is told (whether GraphiQL is served). */
  viewer: ViewerSettings;
}

/** The app's request handler: each request to its route's handler, 404 or 405 when it has none. */
export function createRequestHandler(deps: RouteDeps) {
  const router = createRouter(routeTable(deps));
  return async (request: Request, server: ServerContext): Promise<Response> => {
    const url = urlOf(request);
    try {
      const found = router.match(request.method, url.pathname);
      // The viewer takes every GET outside the routes (its own deep links, its files); it answers 404 itself.
      if (!found && (request.method === "GET" || request.method === "HEAD"))
        return await serveViewer(DEFAULT_VIEWER_ROOT, url.pathname, deps.viewer);
      if (!found) return plain(404, "Not found");
      if (!found.found) return withAllow(plain(405, "Method not allowed"), found.allowed);
      return await found.handler(request, url, found.params, server);
    } catch (error) {
      logger.error(`request ${requestIdOf(request)}: ${request.method} ${url.pathname} failed`, error);
      return plain(500, "Internal server error");
    }
  };
}

function routeTable(deps: RouteDeps): Route<Handler>[] {
  const { services, yoga } = deps;
  const operations = operationsEndpoints({ database: async () => services.store.database, live: services.live });
  const shared = sharedDialogRoute(services.store, services.live, false);
  const sharedLive = sharedDialogRoute(services.store, services.live, true);
  const admit = admitter(deps);

  const rest = createRouter(restRoutes);
  const api = createRouter(apiRoutes);
  return [
    { methods: ["GET"], path: "/health", handler: operations.health },
    { methods: ["GET"], path: "/ready", handler: operations.ready },
    { methods: ["GET"], path: "/metrics", handler: operations.metrics },
    {
      methods: ["GET"],
      path: "/api/shared/:token",
      handler: (request, _url, params) => shared(request, params.token!),
    },
    {
      methods: ["GET"],
      path: "/api/shared/:token/live",
      handler: (request, _url, params) => sharedLive(request, params.token!),
    },
    {
      methods: "*",
      path: GRAPHQL_PATH,
      async handler(request, url, _params, server) {
        // A preflight and GraphiQL's page need no key; Yoga answers them.
        if (request.method !== "OPTIONS" && !isGraphiQLPage(request)) {
          const refused = await admit(request, url, server);
          if (refused instanceof Response) return refused;
        }
        return yoga.handleRequest(request, server);
      },
    },
    {
      methods: "*",
      path: "/api/*path",
      async handler(request, url, _params, server) {
        const viewer = await admit(request, url, server);
        if (viewer instanceof Response) return viewer;
        const found = rest.match(request.method, url.pathname);
        if (!found?.found) return noRestRoute(request.method, url, found?.allowed ?? null);
        const call = { store: services.store, url, params: found.params, tenantId: viewer.tenantId };
        return answerRestRequest(found.handler, request, call);
      },
    },
    {
      methods: "*",
      path: "/v1/*path",
      async handler(request, url, _params, server) {
        const found = api.match(request.method, url.pathname);
        // A preflight takes no key: it is told which methods the path takes.
        if (request.method === "OPTIONS")
          return noApiRoute(request.method, url, found?.found ? null : (found?.allowed ?? null));
        const viewer = await admit(request, url, server);
        if (viewer instanceof Response) return viewer;
        if (!found?.found) return noApiRoute(request.method, url, found?.allowed ?? null);
        return answerApiRequest(found.handler, request, { url, params: found.params, viewer, deps: services });
      },
    },
  ];
}

/**
 * Access control for an API route: the caller (API key, rate limit), then for a stream the
 * connection policy. The viewer, or the refusal to answer with.
 */
function admitter({ authenticator, rateLimiter, connections }: RouteDeps) {
  const checks = { authenticator, rateLimiter };
  return async (request: Request, url: URL, server: ServerContext): Promise<Viewer | Response> => {
    const admitted = await admitRequest(request, url.pathname, checks);
    if (admitted.refused) return admitted.refused;
    // For Yoga's context and the request's log line.
    server.viewer = admitted.viewer;
    // From here on the request's database calls are its tenant's (src/db/tenant-work.ts).
    claimTenant(admitted.viewer.tenantId);
    return refuseEventStream(connections, admitted.viewer, request, server, url.pathname) ?? admitted.viewer;
  };
}

const isGraphiQLPage = (request: Request) =>
  request.method === "GET" && (request.headers.get("accept") ?? "").includes("text/html");

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

function withAllow(response: Response, allowed: readonly string[]) {
  response.headers.set("allow", [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].join(", "));
  return response;
}
