// What the Responses API's routes work with, made by buildApp.
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
