// A route table and its matcher: each route is methods and a path (`/v1/responses/:id/cancel`,
// `/v1/models/*id`), matched segment by segment in the table's order. Not Hono or find-my-way:
// neither is a dependency of this package (Hono is only a transitive one, of the MCP SDK), and a
// table of a few dozen routes needs this much and no more; the tables keep the shape those
// routers take, so one can replace this file without touching them.

/** `:name` matches one segment; `*name` (last only) one or more. Params are URL-decoded. */
export interface Route<Handler> {
  /** Upper-case methods, or "*" for any. */
  methods: readonly string[] | "*";
  path: string;
  handler: Handler;
}

export type Params = Record<string, string>;

/**
 * A request's URL, parsed once: @whatwg-node's requests keep the parsed URL (`parsedUrl`), which
 * Yoga reads too, so the router, Yoga and the request log share one parse instead of making three.
 * Read it, never change it.
 */
export const urlOf = (request: Request): URL => (request as { parsedUrl?: URL }).parsedUrl ?? new URL(request.url);

export type RouteMatch<Handler> =
  | { found: true; handler: Handler; params: Params }
  /** The path is a route's, the method none of its: `allowed` are the ones it takes (for 405). */
  | { found: false; allowed: string[] };

type Segment = { literal: string } | { param: string } | { rest: string };

interface Compiled<Handler> extends Route<Handler> {
  segments: Segment[];
}

export function createRouter<Handler>(routes: readonly Route<Handler>[]) {
  const compiled: Compiled<Handler>[] = routes.map((route) => ({ ...route, segments: compile(route.path) }));

  /** The route for `method` and `pathname` (one trailing slash ignored); null when no route has the path. */
  function match(method: string, pathname: string): RouteMatch<Handler> | null {
    const parts = splitPath(pathname);
    const allowed: string[] = [];
    for (const route of compiled) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      const methods = route.methods;
      if (methods === "*" || methods.includes(method) || (method === "HEAD" && methods.includes("GET"))) {
        return { found: true, handler: route.handler, params };
      }
      allowed.push(...methods);
    }
    return allowed.length ? { found: false, allowed: [...new Set(allowed)] } : null;
  }

  return { match };
}

function compile(path: string): Segment[] {
  return splitPath(path).map((part, index, all) => {
    if (part.startsWith(":")) return { param: part.slice(1) };
    if (part.startsWith("*")) {
      if (index !== all.length - 1) throw new Error(`route ${path}: *${part.slice(1)} must be the last segment`);
      return { rest: part.slice(1) };
    }
    return { literal: part };
  });
}

const splitPath = (pathname: string) => {
  const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  return trimmed.split("/").slice(1);
};

function matchSegments(segments: Segment[], parts: string[]): Params | null {
  const params: Params = {};
  for (const [index, segment] of segments.entries()) {
    const part = parts[index];
    if (part === undefined) return null;
    if ("literal" in segment) {
      if (part !== segment.literal) return null;
    } else if ("param" in segment) {
      if (!part) return null;
      params[segment.param] = decodeSegment(part);
    } else {
      const rest = parts.slice(index);
      if (rest.some((piece) => !piece)) return null;
      params[segment.rest] = rest.map(decodeSegment).join("/");
      return params;
    }
  }
  return parts.length === segments.length ? params : null;
}

/** A malformed escape (`%zz`) names nothing that exists: it is kept as it is, and not found. */
function decodeSegment(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
