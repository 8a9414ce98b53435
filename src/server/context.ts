// One GraphQL context per request (its shape is the schema's: src/schema/context.ts): the app's
// services, the caller (resolved by access control), its tenant scope, fresh loaders and the
// request's read budget, which waits for a turn when the request asks for a large answer.
import { viewerOf } from "../auth/access-control.js";
import { requestIdOf } from "../request-id.js";
import { requestTraceContext } from "../tracing.js";
import { type AppServices, type Context, createLoaders } from "../schema/context.js";
import { createRequestBudget } from "../schema/request-budget.js";
import type { LargeAnswers } from "./large-answers.js";

export function contextFactory(services: AppServices, largeAnswers?: LargeAnswers) {
  return ({ request }: { request?: Request }): Context => {
    const viewer = viewerOf(request);
    const budget = createRequestBudget(viewer.tenantId, services.limits, {
      tenantReads: services.tenantReads,
      beforeRead: largeAnswers?.beforeRead(request),
    });
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
