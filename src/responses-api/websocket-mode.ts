// The Responses API's WebSocket mode on /v1/responses: the client keeps one socket open and sends
// `{"type": "response.create", …create parameters}` messages (the parameters may also sit under
// `response`); each turn's events come back as JSON messages, the same events `stream: true`
// sends, and a refused request as `{"type": "error", "error": {…}}`. The API key is checked at the
// upgrade (Authorization header), and the socket is admitted by the connection policy like every
// long-lived connection (src/connections/connection-policy.ts: counted per key, tenant and instance,
// bounded in unsent bytes, closed when its key is revoked); each request counts against the key's
// rate limit (refused with its wait, as an HTTP answer gives it), and one socket runs at most
// MAX_SUBSCRIPTIONS_PER_CONNECTION turns at once.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import type { Authenticator, Viewer } from "../auth/authenticator.js";
import { refusal } from "../auth/access-control.js";
import { storedTurns, unstoredTurns } from "../generation/turn-sink.js";
import { type RateLimiter, type RateLimitRefusal, rateLimitedError } from "../auth/rate-limit.js";
import { type ConnectionPolicy, KEY_REVOKED } from "../connections/connection-policy.js";
import { emitsAsTenantWork, type TenantShare } from "../db/tenant-work.js";
import type { Limits } from "../limits.js";
import { logger } from "../logger.js";
import { ApiError, errorBody, toApiError } from "./api-errors.js";
import { InvalidRequest } from "./create-request.js";
import { parseWithReferences, type ResponsesDeps, startStreamedTurn, toGenerateRequest } from "./create-response.js";

export const RESPONSES_WEBSOCKET_PATH = "/v1/responses";

/** What the WebSocket mode needs besides the Responses API's own: who is calling, how often, on how many connections. */
export interface WebSocketModeDeps extends ResponsesDeps {
  limits: Limits;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  connections: ConnectionPolicy;
  /** Each tenant's share of the database pool. */
  tenantReads: TenantShare;
}

export function createResponsesWebSocket(deps: WebSocketModeDeps) {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: deps.limits.bodyBytes });

  async function handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    let viewer: Viewer;
    try {
      viewer = await deps.authenticator.authenticate(request.headers.authorization);
    } catch (error) {
      const refused = refusal(error);
      const status = (refused.extensions.http as { status?: number } | undefined)?.status ?? 401;
      socket.end(
        `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${JSON.stringify({ error: { message: refused.message, type: "invalid_request_error", param: null, code: null } })}`,
      );
      return;
    }
    let revoked = false;
    let opened: WebSocket | undefined;
    const refused = deps.connections.admit(viewer, "responses-ws", request.socket, () => {
      revoked = true;
      if (opened) opened.close(KEY_REVOKED, "API key revoked");
      else socket.destroy();
    });
    if (refused) {
      const body = {
        error: { message: refused.message, type: "rate_limit_error", param: null, code: "too_many_connections" },
      };
      socket.end(
        `HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${JSON.stringify(body)}`,
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      opened = ws;
      // Revoked while the upgrade was being completed.
      if (revoked) return ws.close(KEY_REVOKED, "API key revoked");
      serve(ws, viewer);
    });
  }

  function serve(ws: WebSocket, viewer: Viewer) {
    const send = (message: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const refuse = (error: ApiError) => send({ type: "error", ...errorBody(error) });
    const atOnce = deps.limits.subscriptionsPerConnection;
    let running = 0;
    // Its turns' database calls are its tenant's, in the tenant's share of the pool.
    emitsAsTenantWork(ws, {
      tenantId: viewer.tenantId,
      share: deps.tenantReads,
      concurrency: deps.limits.tenantDbConcurrency,
    });
    ws.on("message", async (data) => {
      if (running >= atOnce) {
        const message = `At most ${atOnce} responses may run at once on one connection`;
        return refuse(new ApiError(429, message, "rate_limit_error", null, "too_many_operations"));
      }
      running++;
      try {
        if (viewer.keyId) {
          const decision = await deps.rateLimiter.consume(viewer.keyId);
          if (!decision.allowed) return send(rateLimitedEvent(decision));
        }
        const message = parseMessage(String(data));
        const scope = deps.tenants.of(viewer.tenantId);
        const parsed = await parseWithReferences(message, { ...deps, scope });
        const generate = await toGenerateRequest(parsed, scope, viewer.keyId);
        const sink = parsed.store ? storedTurns(deps) : unstoredTurns(deps.store);
        // A socket that closes mid-turn stops receiving events, not the turn.
        const events = { write: (_frame: string, event: { type: string }) => send(event) };
        await startStreamedTurn(generate, parsed.store, sink, deps.generator, events, parsed.obfuscate);
      } catch (error) {
        const known = toApiError(error);
        if (!known) logger.error("Responses WebSocket request failed", error);
        refuse(known ?? new ApiError(500, "Internal server error", "server_error"));
      } finally {
        running--;
      }
    });
  }

  return { handleUpgrade, close: () => sockets.close() };
}

/**
 * A request over the rate limit, refused as the HTTP routes refuse it (the same message, naming the
 * limit and its wait), with what an HTTP answer says in its status and headers carried in the event:
 * `status` (as OpenAI's WebSocket-mode errors carry it) and `headers` with `retry-after` (whole
 * seconds) and `retry-after-ms`, which OpenAI's SDKs read to wait before they retry.
 */
function rateLimitedEvent(refusal: RateLimitRefusal) {
  const error = new ApiError(429, rateLimitedError(refusal).message, "rate_limit_error", null, "rate_limited");
  return {
    type: "error",
    status: 429,
    headers: { "retry-after": String(refusal.retryAfterSeconds), "retry-after-ms": String(refusal.retryAfterMs) },
    ...errorBody(error),
  };
}

function parseMessage(text: string): Record<string, unknown> {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    throw new InvalidRequest("The message is not valid JSON.", null);
  }
  if (!message || typeof message !== "object" || (message as { type?: unknown }).type !== "response.create") {
    throw new InvalidRequest('Expected a message of type "response.create".', "type");
  }
  const { type: _type, response, ...rest } = message as Record<string, unknown>;
  return response && typeof response === "object" ? (response as Record<string, unknown>) : rest;
}
