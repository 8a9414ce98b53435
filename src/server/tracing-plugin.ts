// A span per HTTP request when tracing is on (src/tracing.ts): started as the request arrives,
// continuing its `traceparent`, ended with its status; the model calls made for the request are
// its children.
import type { ServerAdapterPlugin } from "@whatwg-node/server";
import { routeOf } from "../metrics.js";
import { setRequestTraceContext, type Tracing } from "../tracing.js";

/** The route a span is named by: /v1 paths keep their shape, with ids (resp_…, ULIDs) as {id}. */
function spanRoute(pathname: string, method: string) {
  if (!pathname.startsWith("/v1/")) return routeOf(pathname, method);
  return pathname.replace(/\/(?:[a-z]+_)?[0-9A-Z]{26}(?=\/|$)/g, "/{id}").replace(/\/$/, "");
}

export function useTracing(tracing: Tracing | null): ServerAdapterPlugin {
  if (!tracing) return {};
  const ends = new WeakMap<Request, (status: number) => void>();
  return {
    onRequest({ request, url }) {
      const route = spanRoute(url.pathname, request.method);
      const started = tracing.startRequest(`${request.method} ${route}`, request.headers, {
        "http.request.method": request.method,
        "http.route": route,
        "url.path": url.pathname,
      });
      setRequestTraceContext(request, started.context);
      ends.set(request, started.end);
    },
    onResponse({ request, response }) {
      ends.get(request)?.(response.status);
      ends.delete(request);
    },
  };
}
