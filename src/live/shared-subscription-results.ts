// Fan-out without per-subscriber work: every subscriber of a dialog receives the same published
// payload object (src/live/live-bus.ts hands one object to all its listeners), so the result of
// executing a subscription document for that payload is the same for all of them. This Envelop
// plugin executes each (payload, document, variables) once and hands the result to every
// subscription that asks, instead of once per subscriber: thousands of subscribers to one dialog
// cost one execution per delta. Results depend only on the payload and the database, not on the
// viewer (a subscriber can only reach dialogs it may read), which is what makes them shareable.
// The result object itself is shared too, so graphql-ws serialises it once for all
// (src/server/graphql-ws-next-messages.ts).
import { createSourceEventStream, type DocumentNode, type ExecutionArgs, type ExecutionResult, execute } from "graphql";
import type { Plugin } from "graphql-yoga";
import { directLaneOf } from "./direct-delivery.js";
import { mapStream } from "./map-stream.js";

type Shared = Promise<ExecutionResult> | ExecutionResult;
const resultsByPayload = new WeakMap<object, Map<string, Shared>>();
const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;

function executeShared(args: ExecutionArgs, payload: unknown): Shared {
  const run = () => execute({ ...args, rootValue: payload });
  if (typeof payload !== "object" || payload === null) return run();
  const key = sharingKeyOf(args);
  let results = resultsByPayload.get(payload);
  if (!results) resultsByPayload.set(payload, (results = new Map()));
  let result = results.get(key);
  if (!result) {
    result = run();
    results.set(key, result);
    // Once settled, later subscribers take the result as it is, without waiting on a promise.
    if (result instanceof Promise)
      void result.then(
        (settled) => results.set(key, settled),
        () => undefined,
      );
  }
  return result;
}

// Subscriptions whose document, operation and variables are the same get the same result for a
// payload. Worked out once per subscription (its args object lives as long as it does), not once
// per delta.
const sharingKeys = new WeakMap<ExecutionArgs, string>();
/** What subscriptions with the same results have in common: their document, operation and variables. */
export function sharingKeyOf(args: ExecutionArgs) {
  let key = sharingKeys.get(args);
  if (key === undefined) {
    // Yoga caches parsed documents, so identical subscription texts share one DocumentNode.
    let documentId = documentIds.get(args.document);
    if (documentId === undefined) documentIds.set(args.document, (documentId = nextDocumentId++));
    key = `${documentId}:${args.operationName ?? ""}:${JSON.stringify(args.variableValues ?? {})}`;
    sharingKeys.set(args, key);
  }
  return key;
}

async function subscribeShared(args: ExecutionArgs) {
  // The direct lane (src/live/direct-delivery.ts) executes payloads the same way, sharing results
  // with the usual chain.
  if (isObject(args.contextValue)) directLaneOf(args.contextValue).execute = (payload) => executeShared(args, payload);
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source; // an ExecutionResult with errors
  return mapStream(source, (payload) => executeShared(args, payload));
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;

export function useSharedSubscriptionResults(): Plugin {
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribeShared as never);
    },
  };
}
