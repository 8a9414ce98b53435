// Authentication and rate limiting at the door: every API request (GraphQL on /graphql, REST
// under /api/, /v1) is identified by its route (src/server/routes.ts) before anything else runs,
// and refused with 401 (no valid key), 429 (too many requests for its key) or 503 (the key cannot
// be checked: the database is away). GraphiQL's page, the health check, share links and the
// viewer need no key. The caller
// found here is what the request's context carries as `viewer`.
import { GraphQLError } from "graphql";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { UNAVAILABLE_MESSAGE } from "../errors.js";
import type { Authenticator, Viewer } from "./authenticator.js";
import { type RateLimiter, rateLimitedError } from "./rate-limit.js";

/** The GraphQL error a refused caller is told: 401, 429, or 503 when the key could not be checked. */
export function refusal(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (isDatabaseUnavailable(error)) {
    return new GraphQLError(UNAVAILABLE_MESSAGE, { extensions: { code: "UNAVAILABLE", http: { status: 503 } } });
  }
  throw error;
}

/** Authenticates, then counts the request against its key's rate limit; throws a refusal. */
export async function admit(
  authenticator: Authenticator,
  rateLimiter: RateLimiter,
  authorization: string | null | undefined,
): Promise<Viewer> {
  let viewer: Viewer;
  try {
    viewer = await authenticator.authenticate(authorization);
  } catch (error) {
    throw refusal(error);
  }
  // Development mode has no key to count against: it is not rate limited.
  if (viewer.keyId) {
    const decision = await rateLimiter.consume(viewer.keyId);
    if (!decision.allowed) {
      throw rateLimitedError(decision);
    }
  }
  return viewer;
}

/**
 * Identifies the caller of an API request and counts it against its key's rate limit: the viewer,
 * or the refusal to answer with (401, 429, 503) in the shape of the request's API.
 */
export async function admitRequest(
  request: Request,
  pathname: string,
  checks: { authenticator: Authenticator; rateLimiter: RateLimiter },
): Promise<{ viewer: Viewer; refused?: never } | { refused: Response; viewer?: never }> {
  try {
    const viewer = await admit(checks.authenticator, checks.rateLimiter, credentialOf(request, pathname));
    return { viewer };
  } catch (error) {
    return { refused: refusalResponse(refusal(error), pathname) };
  }
}

/** `Authorization: Bearer <key>`, or on /v1 Anthropic's `x-api-key: <key>` (what its SDK sends). */
function credentialOf(request: Request, path: string) {
  const authorization = request.headers.get("authorization");
  if (authorization || !path.startsWith("/v1/")) return authorization;
  const key = request.headers.get("x-api-key");
  return key ? `Bearer ${key}` : null;
}

/**
 * GraphQL clients get a GraphQL error body; the REST endpoint its own `{detail}` shape; /v1
 * OpenAI's, and /v1/messages Anthropic's.
 */
/** A GraphQL refusal's extensions as the body carries them: its code and wait (RATE_LIMITED's
 * `retryAfterSeconds`, `retryAfterMs`), the HTTP status and headers being the response's own. */
function graphqlExtensions(error: GraphQLError) {
  const { http: _http, ...extensions } = error.extensions;
  return extensions;
}

function refusalResponse(error: GraphQLError, path: string) {
  const http = (error.extensions.http ?? {}) as { status?: number; headers?: Record<string, string> };
  const code = String(error.extensions.code ?? "").toLowerCase();
  const anthropicType =
    code === "rate_limited" ? "rate_limit_error" : http.status === 403 ? "permission_error" : "authentication_error";
  const body =
    path === "/v1/messages"
      ? { type: "error", error: { type: anthropicType, message: error.message } }
      : path.startsWith("/v1/")
        ? {
            error: {
              message: error.message,
              type: code === "rate_limited" ? "rate_limit_error" : "invalid_request_error",
              param: null,
              code,
            },
          }
        : path.startsWith("/api/")
          ? { detail: error.message }
          : { errors: [{ message: error.message, extensions: graphqlExtensions(error) }] };
  return new Response(JSON.stringify(body), {
    status: http.status ?? 401,
    headers: { "content-type": "application/json; charset=utf-8", ...http.headers },
  });
}
