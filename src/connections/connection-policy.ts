// One policy for every long-lived connection, whatever carries it: graphql-ws sockets, SSE
// subscriptions (GraphQL over SSE), and the Responses API's WebSocket mode. Each is admitted here
// once its caller is known, and from then on it is
// - counted per API key, per tenant and per instance, and refused beyond a cap (the transport says
//   so in its own way: close code 4429, HTTP 429; one log line per key and cap every few seconds,
//   and `dialogql_connections_refused_total`);
// - bounded in unsent bytes and in how long they may stay unsent (src/connections/slow-consumers.ts);
// - closed when its API key is revoked (the authenticator hears of it through the live bus at once,
//   or by polling the database every REVOCATION_POLL_MS).
// The instance cap keeps long-lived connections under the process's file-descriptor limit with room
// to spare, so a flood of them from one key cannot keep `/health`, the database pool or another
// tenant's requests from getting a descriptor.
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Authenticator, Viewer } from "../auth/authenticator.js";
import type { Limits } from "../limits.js";
import { logger } from "../logger.js";
import { metrics } from "../metrics.js";
import { createSlowConsumerWatchdog } from "./slow-consumers.js";
import { coalesceWrites } from "./coalesced-writes.js";

export type LongLivedTransport = "graphql-ws" | "sse" | "responses-ws";

/** Why a connection was refused: the message its client is told, and which cap it met. */
export interface ConnectionRefusal {
  message: string;
  limit: "key" | "tenant" | "instance";
}

/** Close code of a WebSocket refused for too many connections (HTTP transports answer 429). */
export const TOO_MANY_CONNECTIONS = 4429;
/** Close code of a WebSocket whose API key was revoked. */
export const KEY_REVOKED = 4403;

// Refusals come in floods (a client reconnecting in a loop): one line per key and cap this often.
const REFUSAL_LOG_INTERVAL_MS = 10_000;

export function createConnectionPolicy(limits: Limits, authenticator: Authenticator) {
  const perInstance = limits.connectionsPerInstance ?? defaultInstanceBudget();
  const byKey = new Counts();
  const byTenant = new Counts();
  let open = 0;
  const watchdog = createSlowConsumerWatchdog({
    timeoutMs: limits.slowSubscriberTimeoutMs,
    maxQueuedBytes: limits.queuedBytesPerConnection,
  });
  const logRefusal = refusalLog();

  const refusalFor = (viewer: Viewer): ConnectionRefusal | null => {
    if (viewer.keyId && byKey.of(viewer.keyId) >= limits.connectionsPerKey)
      return { limit: "key", message: `Too many connections for this API key (at most ${limits.connectionsPerKey})` };
    if (byTenant.of(viewer.tenantId) >= limits.connectionsPerTenant)
      return {
        limit: "tenant",
        message: `Too many connections for this tenant (at most ${limits.connectionsPerTenant})`,
      };
    if (open >= perInstance)
      return { limit: "instance", message: `Too many connections to this instance (at most ${perInstance})` };
    return null;
  };

  return {
    perInstance,

    /**
     * Admits a long-lived connection of `viewer` on `socket`, or refuses it (and logs why). Once
     * admitted it is counted until `lifetime` (the socket, or an SSE stream's response) emits
     * `close`, its socket is watched for unsent bytes, and `closeOnRevocation` is called if its key
     * is revoked.
     */
    admit(
      viewer: Viewer,
      transport: LongLivedTransport,
      socket: Socket,
      closeOnRevocation: () => void,
      lifetime: { once(event: "close", listener: () => void): unknown; destroyed?: boolean } = socket,
    ): ConnectionRefusal | null {
      const refusal = refusalFor(viewer);
      if (refusal) {
        logRefusal(viewer, transport, refusal);
        return refusal;
      }
      if (viewer.keyId) byKey.add(viewer.keyId, 1);
      byTenant.add(viewer.tenantId, 1);
      open++;
      metrics.openConnections.inc({ transport });
      watchdog.watch(socket);
      const untrack = viewer.keyId ? authenticator.trackConnection(viewer.keyId, closeOnRevocation) : () => undefined;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        untrack();
        if (viewer.keyId) byKey.add(viewer.keyId, -1);
        byTenant.add(viewer.tenantId, -1);
        open--;
        metrics.openConnections.dec({ transport });
      };
      lifetime.once("close", release);
      if (socket.destroyed || lifetime.destroyed) release();
      return null;
    },

    /** Long-lived connections open now. */
    get open() {
      return open;
    },

    close() {
      watchdog.close();
    },
  };
}

export type ConnectionPolicy = ReturnType<typeof createConnectionPolicy>;

/** Counts each refusal, and logs it: one line per key and cap every REFUSAL_LOG_INTERVAL_MS, saying how many it stood for. */
function refusalLog() {
  const lastLogged = new Map<string, { at: number; suppressed: number }>();
  return (viewer: Viewer, transport: LongLivedTransport, refusal: ConnectionRefusal) => {
    metrics.connectionsRefused.inc({ transport, limit: refusal.limit });
    const who = `${viewer.keyId ?? "no key"}/${refusal.limit}`;
    const now = Date.now();
    const last = lastLogged.get(who);
    if (last && now - last.at < REFUSAL_LOG_INTERVAL_MS) {
      last.suppressed++;
      return;
    }
    const more = last?.suppressed ? ` (and ${last.suppressed} more since the last such line)` : "";
    logger.warn(
      `refused a ${transport} connection of tenant ${viewer.tenantId}, API key ${viewer.keyId ?? "none"}: ${refusal.message}${more}`,
    );
    lastLogged.set(who, { at: now, suppressed: 0 });
    if (lastLogged.size > 10_000) lastLogged.clear();
  };
}

class Counts {
  private readonly counts = new Map<string, number>();
  of(id: string) {
    return this.counts.get(id) ?? 0;
  }
  add(id: string, by: number) {
    const count = this.of(id) + by;
    if (count > 0) this.counts.set(id, count);
    else this.counts.delete(id);
  }
}

/**
 * Without MAX_CONNECTIONS_PER_INSTANCE: half the process's file-descriptor limit (the soft
 * `ulimit -n`, read from /proc on Linux), at most 10,000; the other half stays for ordinary
 * requests, the database pool, Redis and files.
 */
function defaultInstanceBudget(): number {
  let descriptors = 20_000;
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    if (line) descriptors = Number(line[1]);
  } catch {
    // Not Linux: assume a common limit.
  }
  return Math.max(100, Math.min(10_000, Math.floor(descriptors / 2)));
}

/**
 * SSE streams (a GraphQL subscription over SSE, or any API request asking for text/event-stream)
 * are admitted by the policy once access control has found their caller. A refused one gets the
 * 429 to answer with (its connection closed, so the refusal frees its descriptor); null when the
 * request is no stream, or is admitted.
 */
export function refuseEventStream(
  policy: ConnectionPolicy,
  viewer: Viewer,
  request: Request,
  node: { req?: IncomingMessage; res?: ServerResponse } | undefined,
  pathname: string,
): Response | null {
  if (!(request.headers.get("accept") ?? "").includes("text/event-stream")) return null;
  if (!node?.req || !node.res) return null;
  const { socket } = node.req;
  const refused = policy.admit(viewer, "sse", socket, () => socket.destroy(), node.res);
  if (!refused) {
    coalesceWrites(node.res);
    return null;
  }
  const body = pathname.startsWith("/v1/")
    ? { error: { message: refused.message, type: "rate_limit_error", param: null, code: "too_many_connections" } }
    : {
        errors: [{ message: refused.message, extensions: { code: "TOO_MANY_CONNECTIONS", limit: refused.limit } }],
      };
  return new Response(JSON.stringify(body), {
    status: 429,
    headers: { "content-type": "application/json; charset=utf-8", connection: "close" },
  });
}
