// The OpenAI Responses API at /v1 (docs/responses-api.md), as a Yoga plugin after access control:
// the caller's API key decides its tenant, so a key of tenant A never reads or continues a
// response of tenant B (it is "not found", exactly like an id that does not exist).
import type { Plugin } from "graphql-yoga";
import { viewerOf } from "../auth/access-control.js";
import type { TenantScope } from "../auth/tenant-scope.js";
import { logger } from "../logger.js";
import { requestIdOf } from "../server/request-id.js";
import { ApiError, errorResponse, json, toApiError } from "./api-errors.js";
import { handleCompact } from "./compact.js";
import { handleCreate, type ResponsesDeps } from "./create-response.js";
import { toResponseObject } from "./response-object.js";
import { listInputItems, readResponseView } from "./stored-responses.js";

const responseRoute = /^\/v1\/responses\/([^/]+)(\/input_items|\/cancel)?\/?$/;

export function useResponsesApi(options: ResponsesDeps): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (!url.pathname.startsWith("/v1/")) return;
      try {
        const viewer = viewerOf(request);
        const scope = options.tenants.of(viewer.tenantId);
        endResponse(await route(request, url, scope, { ...options, keyId: viewer.keyId }));
      } catch (error) {
        const known = toApiError(error);
        if (known) return endResponse(errorResponse(known));
        logger.error(`request ${requestIdOf(request)}: ${request.method} ${url.pathname} failed`, error);
        endResponse(errorResponse(new ApiError(500, "Internal server error", "server_error")));
      }
    },
  };
}

async function route(request: Request, url: URL, scope: TenantScope, deps: ResponsesDeps & { keyId: string | null }) {
  const { method } = request;
  if (url.pathname === "/v1/responses" || url.pathname === "/v1/responses/") {
    if (method === "POST") return handleCreate(request, { ...deps, scope });
    return notAllowed(method, url);
  }
  if (url.pathname === "/v1/responses/compact" && method === "POST") return handleCompact(request, { ...deps, scope });
  const match = responseRoute.exec(url.pathname);
  if (!match) return errorResponse(new ApiError(404, `No route ${method} ${url.pathname}`, "invalid_request_error"));
  const id = decodeURIComponent(match[1]!);
  const action = match[2];
  const { dialogId } = await scope.response(id, ApiError.responseNotFound);
  if (!action && method === "GET") return json(200, toResponseObject(await readResponseView(deps.store, id)));
  if (!action && method === "DELETE") {
    await deps.writes.deleteResponse(id, dialogId);
    return json(200, { id, object: "response", deleted: true });
  }
  if (action === "/cancel" && method === "POST") return json(200, toResponseObject(await cancel(id, deps)));
  if (action === "/input_items" && method === "GET")
    return json(200, await listInputItems(deps.store, id, inputItemsPage(url)));
  return notAllowed(method, url);
}

/**
 * Stops the turn if this process runs it; an IN_PROGRESS turn nobody here runs (an agent streaming
 * it, or a turn whose process is gone) is cancelled here, its in-flight text ended as
 * interruptResponse ends it.
 */
async function cancel(id: string, deps: ResponsesDeps) {
  const outcome = deps.generator.cancel(id);
  if (outcome) await outcome;
  else {
    const view = await readResponseView(deps.store, id);
    if (view.status === "IN_PROGRESS") await deps.writes.cancelResponse(id);
  }
  return readResponseView(deps.store, id);
}

function inputItemsPage(url: URL) {
  const limit = Number(url.searchParams.get("limit") ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ApiError(400, "Invalid 'limit': must be an integer from 1 to 100.", "invalid_request_error", "limit");
  }
  const order = url.searchParams.get("order") ?? "desc";
  if (order !== "asc" && order !== "desc") {
    throw new ApiError(400, "Invalid 'order': must be asc or desc.", "invalid_request_error", "order");
  }
  return { limit, order, after: url.searchParams.get("after") } as const;
}

const notAllowed = (method: string, url: URL) =>
  errorResponse(new ApiError(405, `${method} is not allowed on ${url.pathname}`, "invalid_request_error"));
