// The REST history endpoint (docs/api.md) as a Yoga plugin (after authentication: the caller's tenant decides
// which dialogs exist for it), and `/` sending people to GraphiQL.
import type { Plugin } from "graphql-yoga";
import { viewerOf } from "../auth/access-control.js";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { UNAVAILABLE_MESSAGE } from "../errors.js";
import { logger } from "../logger.js";
import { requestIdOf } from "../request-id.js";
import type { Store } from "../store/store.js";
import { handleHistoryRequest, historyRoute, json } from "./history-endpoint.js";
import { handleUsageCsv, usageCsvRoute } from "./usage-csv.js";

export function useRestEndpoints(store: Store): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      const history = historyRoute.exec(url.pathname);
      const usage = usageCsvRoute.test(url.pathname);
      if ((!history && !usage) || request.method !== "GET") return;
      try {
        const scope = { tenantId: viewerOf(request).tenantId };
        if (usage) return endResponse(await handleUsageCsv(store, url, scope.tenantId));
        endResponse(await handleHistoryRequest(store, decodePathSegment(history![1]!), url, scope));
      } catch (error) {
        const requestId = requestIdOf(request);
        if (isDatabaseUnavailable(error)) {
          logger.warn(`request ${requestId}: database unavailable (REST history)`);
          return endResponse(json(503, { detail: UNAVAILABLE_MESSAGE }));
        }
        logger.error(`request ${requestId}: REST history failed`, error);
        endResponse(json(500, { detail: "Internal server error" }));
      }
    },
  };
}

/** A malformed escape (`%zz`) cannot name a dialog: keep it as it is, and it is not found. */
function decodePathSegment(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
