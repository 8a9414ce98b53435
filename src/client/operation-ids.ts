// Ids for a graphql-ws client's operations: "1", "2", … in the order they start. The protocol asks
// only that an id be unique on its connection (graphql-ws's default is a random UUID). A counter per
// client is unique on every socket it opens, and viewers of one dialog whose subscriptions carry the
// same id receive the very same `next` message, which the server frames once for all of them
// (src/server/graphql-ws-next-messages.ts) instead of once per subscriber.
export function numberedOperationIds(): () => string {
  let started = 0;
  return () => String(++started);
}
