// The OpenAI Responses API and its sibling doors at /v1 (docs/responses-api.md): a route table the
// server's router (src/server/routes.ts) dispatches to once access control has found the caller.
// Every route answers as the caller's tenant, so a key of tenant A never reads or continues a
// response of tenant B (it is "not found", exactly like an id that does not exist), and every
// failure is in the API's error shape.
import type { Viewer } from "../auth/authenticator.js";
import type { TenantScope } from "../auth/tenant-scope.js";
import { logger } from "../logger.js";
import { requestIdOf } from "../request-id.js";
import { anthropicError, handleAnthropicMessages } from "./anthropic-messages.js";
import { followResponse } from "./background-stream.js";
import { cancel } from "./cancel.js";
import { ApiError, errorResponse, json, toApiError } from "./api-errors.js";
import { handleChatCompletions } from "./chat-completions.js";
import { handleCompact } from "./compact.js";
import { conversationRoutes } from "./conversations.js";
import { listModels, readModel } from "./models.js";
import { handleCreate } from "./create-response.js";
import type { ApiCall, ApiRoute, ResponsesDeps } from "./responses-deps.js";
import { inputItemsPage } from "./listed-items.js";
import { includableValues } from "./request-params.js";
import { toResponseObject } from "./response-object.js";
import { listInputItems, readResponseView } from "./stored-responses.js";

/** The response named by the path, if the caller's tenant has it; its dialog otherwise 404. */
const ownResponse = (call: ApiCall) => call.scope.response(call.params.id!, ApiError.responseNotFound);

const responseRoutes: ApiRoute[] = [
  { methods: ["POST"], path: "/v1/responses", handler: handleCreate },
  { methods: ["POST"], path: "/v1/responses/compact", handler: handleCompact },
  {
    methods: ["GET"],
    path: "/v1/responses/:id",
    async handler(_request, call) {
      const { dialogId } = await ownResponse(call);
      const id = call.params.id!;
      const shown = retrieveIncludes(call.url);
      if (call.url.searchParams.get("stream") === "true") {
        const streamShown = { ...shown, obfuscate: includeObfuscation(call.url) };
        return followResponse(call, id, dialogId, startingAfter(call.url), streamShown);
      }
      const object = toResponseObject(await readResponseView(call.store, id));
      return json(200, shown.encryptedReasoning ? object : withoutEncryptedReasoning(object));
    },
  },
  {
    methods: ["DELETE"],
    path: "/v1/responses/:id",
    async handler(_request, call) {
      const { dialogId } = await ownResponse(call);
      await call.writes.deleteResponse(call.params.id!, dialogId);
      return json(200, { id: call.params.id, object: "response", deleted: true });
    },
  },
  {
    methods: ["POST"],
    path: "/v1/responses/:id/cancel",
    async handler(_request, call) {
      const { dialogId } = await ownResponse(call);
      return json(200, toResponseObject(await cancel(call.params.id!, dialogId, call)));
    },
  },
  {
    methods: ["GET"],
    path: "/v1/responses/:id/input_items",
    async handler(_request, call) {
      await ownResponse(call);
      return json(200, await listInputItems(call.store, call.params.id!, inputItemsPage(call.url)));
    },
  },
];

/** Every route under /v1, for the server's router. */
export const apiRoutes: ApiRoute[] = [
  ...responseRoutes,
  { methods: ["POST"], path: "/v1/chat/completions", handler: handleChatCompletions },
  { methods: ["POST"], path: "/v1/messages", handler: handleAnthropicMessages },
  { methods: ["GET"], path: "/v1/models", handler: listModels },
  { methods: ["GET"], path: "/v1/models/*id", handler: readModel },
  ...conversationRoutes,
];

/** Answers one /v1 request with its route's handler, as `viewer`'s tenant; every failure in the API's error shape. */
export async function answerApiRequest(
  handler: ApiRoute["handler"],
  request: Request,
  call: { url: URL; params: Record<string, string>; viewer: Viewer; deps: ResponsesDeps },
): Promise<Response> {
  const { url, params, viewer, deps } = call;
  try {
    const scope: TenantScope = deps.tenants.of(viewer.tenantId);
    // The caller's key is charged for what it generates and held to its budget.
    return await handler(request, { ...deps, keyId: viewer.keyId, scope, url, params });
  } catch (error) {
    const known = toApiError(error);
    if (known) return errorResponse(known);
    logger.error(`request ${requestIdOf(request)}: ${request.method} ${url.pathname} failed`, error);
    return errorResponse(new ApiError(500, "Internal server error", "server_error"));
  }
}

/** No route has the path (404), or none of its routes takes the method (405): in /v1/messages' shape there, OpenAI's elsewhere. */
export function noApiRoute(method: string, url: URL, allowed: readonly string[] | null): Response {
  const status = allowed ? 405 : 404;
  const message = allowed ? `${method} is not allowed on ${url.pathname}` : `No route ${method} ${url.pathname}`;
  if (url.pathname.replace(/\/$/, "") === "/v1/messages") return anthropicError(status, message);
  const response = errorResponse(new ApiError(status, message, "invalid_request_error"));
  if (allowed) response.headers.set("allow", allowed.join(", "));
  return response;
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

/**
 * `include` of a retrieve (`include[]=…` as the SDKs send it, or `include=…`), applied as OpenAI
 * applies it: the encrypted reasoning a response kept is shown only when asked for. Logprobs are
 * not kept, so asking a retrieve for them is refused rather than answered with none.
 */
function retrieveIncludes(url: URL) {
  const asked = [...url.searchParams.getAll("include[]"), ...url.searchParams.getAll("include")];
  for (const value of asked) {
    if (!(includableValues as readonly string[]).includes(value)) {
      throw new ApiError(400, `Invalid 'include': unknown value '${value}'.`, "invalid_request_error", "include");
    }
    if (value === "message.output_text.logprobs") {
      throw new ApiError(
        400,
        "Invalid 'include': logprobs are not stored; ask for them when the response is created.",
        "invalid_request_error",
        "include",
      );
    }
  }
  return { encryptedReasoning: asked.includes("reasoning.encrypted_content") };
}

function withoutEncryptedReasoning(object: ReturnType<typeof toResponseObject>) {
  return {
    ...object,
    output: object.output.map((item) => (item.type === "reasoning" ? { ...item, encrypted_content: null } : item)),
  };
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
