// What the routes at /v1 work with (made by buildApp), and the shape of a route (src/responses-api/api-routes.ts).
import type { TenantScope } from "../auth/tenant-scope.js";
import type { Generator } from "../generation/generate-turn.js";
import type { StoredTurnsDeps } from "../generation/turn-sink.js";
import type { LiveBus } from "../live/live-bus.js";

/**
 * What the Responses API works with: the app's store, history writes, tenant cache and model loop,
 * and the live bus to follow turns (background streams) and reach other instances (cancel).
 */
export interface ResponsesDeps extends StoredTurnsDeps {
  generator: Generator;
  live: LiveBus;
  /** The caller's API key, charged for the turn and held to its budget (docs/usage.md). */
  keyId?: string | null;
}

export interface CreateDeps extends ResponsesDeps {
  scope: TenantScope;
}

/** One /v1 request, as its route's handler gets it: the app's deps, the caller's scope and key, the path's params. */
export interface ApiCall extends CreateDeps {
  url: URL;
  params: Record<string, string>;
}

/** A route of /v1: the methods and path the server's router matches (`:id` one segment, `*id` the rest). */
export interface ApiRoute {
  methods: readonly string[];
  path: string;
  handler: (request: Request, call: ApiCall) => Promise<Response>;
}
