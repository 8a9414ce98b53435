// The REST endpoints under /api/ (docs/api.md) as a route table for the server's router
// (src/server/routes.ts), answered after access control: the caller's tenant decides which
// dialogs exist for it. Failures are in the endpoints' `{detail}` shape.
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { UNAVAILABLE_MESSAGE } from "../errors.js";
import { logger } from "../logger.js";
import { requestIdOf } from "../request-id.js";
import type { Store } from "../store/store.js";
import { handleHistoryRequest, json } from "./history-endpoint.js";
import { handleUsageCsv } from "./usage-csv.js";

/** One /api request as its route's handler gets it. */
export interface RestCall {
  store: Store;
  url: URL;
  params: Record<string, string>;
  tenantId: string;
}

export interface RestRoute {
  methods: readonly string[];
  path: string;
  handler: (call: RestCall) => Promise<Response>;
}

export const restRoutes: RestRoute[] = [
  {
    methods: ["GET"],
    path: "/api/dialogs/:id/history",
    handler: ({ store, url, params, tenantId }) => handleHistoryRequest(store, params.id!, url, { tenantId }),
  },
  {
    methods: ["GET"],
    path: "/api/usage.csv",
    handler: ({ store, url, tenantId }) => handleUsageCsv(store, url, tenantId),
  },
];

/** Answers one /api request with its route's handler; a database away is 503, anything unexpected 500. */
export async function answerRestRequest(handler: RestRoute["handler"], request: Request, call: RestCall) {
  try {
    return await handler(call);
  } catch (error) {
    const requestId = requestIdOf(request);
    if (isDatabaseUnavailable(error)) {
      logger.warn(`request ${requestId}: database unavailable (REST ${call.url.pathname})`);
      return json(503, { detail: UNAVAILABLE_MESSAGE });
    }
    logger.error(`request ${requestId}: REST ${call.url.pathname} failed`, error);
    return json(500, { detail: "Internal server error" });
  }
}

/** No route has the path (404), or none of its routes takes the method (405). */
export function noRestRoute(method: string, url: URL, allowed: readonly string[] | null): Response {
  if (!allowed) return json(404, { detail: `No route ${method} ${url.pathname}` });
  const response = json(405, { detail: `${method} is not allowed on ${url.pathname}` });
  response.headers.set("allow", allowed.join(", "));
  return response;
}
