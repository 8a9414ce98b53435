// The GraphQL context, at the bottom of the schema layer as Pothos' builder expects it (the server
// makes one per request: src/server/context.ts). Per-request context: the app's store (every read goes through it), the history writes (every
// write goes through them, and they publish), the live bus subscriptions listen on, the caller's tenant scope,
// and loaders that batch what many fields of one response ask for.
import type { Context as TraceContext } from "@opentelemetry/api";
import DataLoader from "dataloader";
import type { Event, Response } from "../generated/prisma/client.js";
import type { Generator } from "../generation/generate-turn.js";
import type { HistoryWrites } from "../history-writes/history-writes.js";
import type { LiveBus } from "../live/live-bus.js";
import type { Viewer } from "../auth/authenticator.js";
import type { TenantScope, TenantScopes } from "../auth/tenant-scope.js";
import type { Store } from "../store/store.js";
import type { Limits } from "../limits.js";
import { createRequestBudget, type RequestBudget, type TenantReads } from "./request-budget.js";

/** What every request of one app shares (made by buildApp). */
export interface AppServices {
  store: Store;
  /** What subscriptions listen on (publishing is the writes' job). */
  live: LiveBus;
  /** The one door for every history write (src/history-writes/): it publishes after the commit. */
  writes: HistoryWrites;
  /** The tenant checks and their cache (src/auth/tenant-scope.ts). */
  tenants: TenantScopes;
  /** Runs model turns (src/generation). */
  generator: Generator;
  limits: Limits;
  /** Each tenant's share of the database pool (request budgets read through it). */
  tenantReads: TenantReads;
}

export interface Context extends AppServices {
  /** Echoed in the x-request-id header and in unexpected errors (src/request-id.ts). */
  requestId: string;
  /** Who is calling (src/auth/authenticator.ts). */
  viewer: Viewer;
  /** The caller's tenant: every id a resolver receives is checked through it first. */
  scope: TenantScope;
  loaders: ReturnType<typeof createLoaders>;
  /** What this request may still read (rows, bytes, time); event reads go through it. */
  budget: RequestBudget;
  /** The request's trace context when traces are on (src/tracing.ts): generated turns are its children. */
  traceContext?: TraceContext;
}

export function createLoaders({ prisma }: Store, budget: RequestBudget) {
  return {
    response: new DataLoader<string, Response>(async (ids) => {
      const rows = await prisma.response.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? new Error(`Response ${id} not found`));
    }),
    /** Events of many responses in one query, each list in seq order. */
    eventsOfResponse: new DataLoader<string, Event[]>(async (responseIds) => {
      // Counted once read: a response holds at most MAX_EVENTS_PER_WRITE events, and a page of
      // responses at most 100, so this one read is bounded already.
      const events = await budget.read(0, () =>
        prisma.event.findMany({ where: { responseId: { in: [...responseIds] } }, orderBy: { seq: "asc" } }),
      );
      const byResponse = new Map<string, Event[]>(responseIds.map((id) => [id, []]));
      for (const event of events) byResponse.get(event.responseId)!.push(event);
      return responseIds.map((id) => byResponse.get(id)!);
    }),
  };
}

/**
 * A subscription keeps one context for its whole life, and loaders cache forever: each event it
 * delivers starts with fresh loaders so it never shows a response as it was at an earlier event.
 */
export function renewLoaders(context: Context) {
  // Each delivered event is a new answer, with a budget of its own (which never waits for a turn
  // for large answers: a subscription would keep it for its whole life).
  context.budget = createRequestBudget(context.limits);
  context.loaders = createLoaders(context.store, context.budget);
}
