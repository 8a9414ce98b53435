// Fan-out without per-subscriber work: every subscriber of a dialog receives the same published
// payload object (src/live/live-bus.ts hands one object to all its listeners), so the result of
// executing a subscription document for that payload is the same for all of them. This Envelop
// plugin executes each (payload, document, variables) once and hands the result to every
// subscription that asks, instead of once per subscriber: thousands of subscribers to one dialog
// cost one execution per delta. Results depend only on the payload and the database, not on the
// viewer (a subscriber can only reach dialogs it may read), which is what makes them shareable.
// The result object itself is shared too, so graphql-ws serialises it once for all
// (src/server/graphql-ws-next-messages.ts). A Yoga plugin, so it sits with the server's: live/
// knows payloads, not GraphQL execution.
import { createSourceEventStream, type ExecutionArgs, type ExecutionResult, execute } from "graphql";
import type { Plugin } from "graphql-yoga";
import { sharingKeyOf } from "../connections/sharing-key.js";
import { directLaneOf } from "../live/direct-delivery.js";
import { mapStream } from "../live/map-stream.js";

type Shared = Promise<ExecutionResult> | ExecutionResult;
// Module-level, and weak, because what they are keyed by outlives no one here: a published
// payload is shared by every subscriber of its live bus, and dropped once delivered
// (its results with it).
const resultsByPayload = new WeakMap<object, Map<string, Shared>>();

// Called once per subscriber per delta: the result found allocates nothing.
function executeShared(args: ExecutionArgs, key: string, payload: unknown): Shared {
  if (typeof payload !== "object" || payload === null) return execute({ ...args, rootValue: payload });
  let results = resultsByPayload.get(payload);
  if (!results) resultsByPayload.set(payload, (results = new Map()));
  let result = results.get(key);
  if (!result) {
    result = execute({ ...args, rootValue: payload });
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

async function subscribeShared(args: ExecutionArgs) {
  const key = sharingKeyOf(args);
  const executeFor = (payload: unknown) => executeShared(args, key, payload);
  // The direct lane (src/live/direct-delivery.ts) executes payloads the same way, sharing results
  // with the usual chain.
  if (isObject(args.contextValue)) directLaneOf(args.contextValue).execute = executeFor;
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source; // an ExecutionResult with errors
  return mapStream(source, executeFor);
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;

export function useSharedSubscriptionResults(): Plugin {
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribeShared as never);
    },
  };
}
