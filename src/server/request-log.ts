// One log line and one set of metrics per HTTP request: id, tenant, GraphQL operation, status and
// duration; and one line per WebSocket operation (when a query or mutation is done, when a
// subscription ends). Probes (/health, /ready, /metrics) log at debug, so they do not drown the rest. Also
// counts GraphQL operations and keeps the gauge of open subscriptions (SSE and WebSocket alike,
// since both run through the same envelop pipeline).
import type { ServerAdapterPlugin } from "@whatwg-node/server";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { logger } from "../logger.js";
import { metrics, routeOf } from "../metrics.js";
import { requestIdOf } from "../request-id.js";
import type { ServerContext } from "./context.js";
import { urlOf } from "./router.js";

interface Timing {
  started: number;
  operation?: string;
}

const timings = new WeakMap<object, Timing>();

/** The HTTP side, a plugin of the server in front (src/server/app.ts): every request, whatever its route. */
export function useRequestLog(): ServerAdapterPlugin<ServerContext> {
  return {
    onRequest({ request }) {
      timings.set(request, { started: performance.now() });
    },
    onResponse({ request, response, serverContext }) {
      const timing = timings.get(request);
      if (!timing) return;
      const url = urlOf(request);
      const route = routeOf(url.pathname, request.method);
      const seconds = (performance.now() - timing.started) / 1000;
      metrics.httpRequests.inc({ method: request.method, route, status: String(response.status) });
      metrics.httpDuration.observe({ method: request.method, route }, seconds);
      const probe = route === "/health" || route === "/ready" || route === "/metrics";
      logger[probe ? "debug" : "info"]("request", {
        requestId: requestIdOf(request),
        method: request.method,
        path: url.pathname,
        status: response.status,
        durationMs: Math.round(seconds * 10_000) / 10,
        ...(timing.operation ? { operation: timing.operation } : {}),
        ...(serverContext.viewer ? { tenant: serverContext.viewer.tenantId } : {}),
      });
    },
  };
}

/** The GraphQL side, a Yoga plugin: the operation's name on its request's line, counts, WebSocket lines. */
export function useOperationLog(): Plugin<OperationContext> {
  return {
    onParams({ request, params }) {
      const timing = timings.get(request);
      if (timing && params.operationName) timing.operation = params.operationName;
    },
    onExecute({ args }) {
      const type = operationType(args.document);
      metrics.graphqlOperations.inc({ type });
      // A WebSocket operation has no HTTP response of its own: it gets its own line when done.
      if (!overWebSocket(args.contextValue)) return;
      const started = performance.now();
      return { onExecuteDone: () => logOperation(args, type, started) };
    },
    onSubscribe({ args }) {
      metrics.graphqlOperations.inc({ type: "subscription" });
      const started = performance.now();
      const ended = overWebSocket(args.contextValue)
        ? () => logOperation(args, "subscription", started)
        : () => undefined;
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(countedWhileOpen(result, ended));
        },
      };
    },
  };
}

interface OperationContext {
  requestId?: string;
  socket?: unknown;
  viewer?: { tenantId: string };
}

/** graphql-ws (src/server/graphql-ws.ts) puts the socket into the context of its operations. */
const overWebSocket = (context: OperationContext) => Boolean(context.socket);

function logOperation(
  args: { contextValue: OperationContext; operationName?: string | null | undefined },
  type: string,
  started: number,
) {
  const { requestId, viewer } = args.contextValue;
  logger.info("operation", {
    transport: "websocket",
    requestId,
    type,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    ...(args.operationName ? { operation: args.operationName } : {}),
    ...(viewer ? { tenant: viewer.tenantId } : {}),
  });
}

function operationType(document: { definitions: readonly { kind: string; operation?: string }[] }) {
  return document.definitions.find((d) => d.kind === "OperationDefinition")?.operation ?? "unknown";
}

/** The stream, with the open-subscriptions gauge raised until it ends, fails or is stopped. */
function countedWhileOpen<T>(source: AsyncIterable<T>, onEnd: () => void): AsyncIterableIterator<T> {
  const inner = source[Symbol.asyncIterator]();
  metrics.activeSubscriptions.inc();
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    metrics.activeSubscriptions.dec();
    onEnd();
  };
  const iterator: AsyncIterableIterator<T> = {
    next: () =>
      inner.next().then(
        (step) => {
          if (step.done) close();
          return step;
        },
        (error) => {
          close();
          throw error;
        },
      ),
    return: (value?: unknown) => {
      close();
      return (inner.return?.(value) ?? Promise.resolve({ done: true, value: undefined })) as Promise<IteratorResult<T>>;
    },
    throw: (error?: unknown) => {
      close();
      return (inner.throw?.(error) ?? Promise.reject(error)) as Promise<IteratorResult<T>>;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
