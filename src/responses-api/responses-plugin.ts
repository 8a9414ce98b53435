// The OpenAI Responses API at /v1 (docs/responses-api.md), as a Yoga plugin after access control:
// the caller's API key decides its tenant, so a key of tenant A never reads or continues a
// response of tenant B (it is "not found", exactly like an id that does not exist).
import type { Plugin } from "graphql-yoga";
import { viewerOf } from "../auth/access-control.js";
import type { TenantScope } from "../auth/tenant-scope.js";
import { logger } from "../logger.js";
import { requestIdOf } from "../request-id.js";
import { followResponse } from "./background-stream.js";
import { cancel } from "./cancel.js";
import { ApiError, errorResponse, json, toApiError } from "./api-errors.js";
import { anthropicMessagesRoute } from "./anthropic-messages.js";
import { chatCompletionsRoute } from "./chat-completions.js";
import { handleCompact } from "./compact.js";
import { modelsRoute } from "./models.js";
import { handleCreate, type ResponsesDeps } from "./create-response.js";
import { toResponseObject } from "./response-object.js";
import { listInputItems, readResponseView } from "./stored-responses.js";

const responseRoute = /^\/v1\/responses\/([^/]+)(\/input_items|\/cancel)?\/?$/;

/** Answers the requests under `/v1/`: the Responses API's routes. */
export const useResponsesApi = (options: ResponsesDeps) => useApiRoutes(options, "/v1/", route);

type ApiRoute = (request: Request, url: URL, scope: TenantScope, deps: ResponsesDeps) => Promise<Response>;

/**
 * A group of /v1 routes under `prefix`, answered as the caller's tenant, every failure in the API's
 * error shape. Groups are registered in buildApp, the more specific prefix first.
 */
export function useApiRoutes(options: ResponsesDeps, prefix: string, handle: ApiRoute): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (!url.pathname.startsWith(prefix)) return;
      try {
        const viewer = viewerOf(request);
        const scope = options.tenants.of(viewer.tenantId);
        // The caller's key is charged for what it generates and held to its budget.
        endResponse(await handle(request, url, scope, { ...options, keyId: viewer.keyId }));
      } catch (error) {
        const known = toApiError(error);
        if (known) return endResponse(errorResponse(known));
        logger.error(`request ${requestIdOf(request)}: ${request.method} ${url.pathname} failed`, error);
        endResponse(errorResponse(new ApiError(500, "Internal server error", "server_error")));
      }
    },
  };
}

/** The other doors at /v1, each a module of its own. */
const doors = [chatCompletionsRoute, anthropicMessagesRoute, modelsRoute];

async function route(request: Request, url: URL, scope: TenantScope, deps: ResponsesDeps) {
  const { method } = request;
  const door = doors.find((candidate) => candidate.matches(url.pathname));
  if (door) return door.handle(request, { ...deps, scope });
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
  if (!action && method === "GET" && url.searchParams.get("stream") === "true") {
    return followResponse(deps, id, dialogId, startingAfter(url), includeObfuscation(url));
  }
  if (!action && method === "GET") return json(200, toResponseObject(await readResponseView(deps.store, id)));
  if (!action && method === "DELETE") {
    await deps.writes.deleteResponse(id, dialogId);
    return json(200, { id, object: "response", deleted: true });
  }
  if (action === "/cancel" && method === "POST") return json(200, toResponseObject(await cancel(id, dialogId, deps)));
  if (action === "/input_items" && method === "GET")
    return json(200, await listInputItems(deps.store, id, inputItemsPage(url)));
  return notAllowed(method, url);
}

function startingAfter(url: URL) {
  const text = url.searchParams.get("starting_after");
  const after = text == null ? -1 : Number(text);
  if (!Number.isInteger(after) || after < -1) {
    throw new ApiError(
      400,
      "Invalid 'starting_after': must be a sequence number.",
      "invalid_request_error",
      "starting_after",
    );
  }
  return after;
}

/** `include_obfuscation` of a streamed GET: true unless "false", as OpenAI's retrieve takes it. */
function includeObfuscation(url: URL) {
  const text = url.searchParams.get("include_obfuscation");
  if (text == null || text === "true") return true;
  if (text === "false") return false;
  throw new ApiError(
    400,
    "Invalid 'include_obfuscation': must be true or false.",
    "invalid_request_error",
    "include_obfuscation",
  );
}

export function inputItemsPage(url: URL) {
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

export const notAllowed = (method: string, url: URL) =>
  errorResponse(new ApiError(405, `${method} is not allowed on ${url.pathname}`, "invalid_request_error"));
