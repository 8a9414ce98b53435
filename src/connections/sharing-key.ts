// Subscriptions whose document, operation and variables are the same get the same result for a
// payload (src/server/shared-subscription-results.ts) and share their start-up reads
// (subscription-pacing.ts). Worked out once per subscription, not once per delta.
import type { DocumentNode, ExecutionArgs } from "graphql";

// Weak, because a parsed document lives in Yoga's parse cache and may be dropped from it.
const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;

/** What subscriptions with the same results have in common: their document, operation and variables. */
export function sharingKeyOf(args: Pick<ExecutionArgs, "document" | "operationName" | "variableValues">) {
  // Yoga caches parsed documents, so identical subscription texts share one DocumentNode.
  let documentId = documentIds.get(args.document);
  if (documentId === undefined) documentIds.set(args.document, (documentId = nextDocumentId++));
  return `${documentId}:${args.operationName ?? ""}:${JSON.stringify(args.variableValues ?? {})}`;
}
