// One GraphQL context per request (its shape is the schema's: src/schema/context.ts): the app's
// services, the caller (found by access control at the request's route, src/server/routes.ts, or
// when its WebSocket connected, src/server/graphql-ws.ts), its tenant scope, fresh loaders and the
// request's read budget, which waits for a turn when the request asks for a large answer.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Viewer } from "../auth/authenticator.js";
import { requestIdOf } from "../request-id.js";
import { requestTraceContext } from "../tracing.js";
import { type AppServices, type Context, createLoaders } from "../schema/context.js";
import { createRequestBudget } from "../schema/request-budget.js";
import type { LargeAnswers } from "./large-answers.js";

/**
 * What a request carries from the server in front into its route's handler and into Yoga: the
 * Node objects (absent for `app.fetch`), and the caller once access control has found it.
 */
export interface ServerContext {
  req?: IncomingMessage;
  res?: ServerResponse;
  viewer?: Viewer;
}

export function contextFactory(services: AppServices, largeAnswers?: LargeAnswers) {
  return ({ request, viewer }: { request?: Request; viewer?: Viewer }): Context => {
    if (!viewer) throw new Error("a request reached its context without being authenticated");
    const budget = createRequestBudget(services.limits, { beforeRead: largeAnswers?.beforeRead(request) });
    return {
      ...services,
      requestId: requestIdOf(request),
      traceContext: requestTraceContext(request),
      viewer,
      scope: services.tenants.of(viewer.tenantId),
      loaders: createLoaders(services.store, budget),
      budget,
    };
  };
}
