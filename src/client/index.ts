// dialogql/client: typed operations, a client for Node and browsers, and watchHistory. No React
// here (that is dialogql/client/react), so a Node script imports this without React installed.
export {
  applyHistoryDelta,
  type ApplyHistoryDeltaResult,
  type HistoryDeltaLike,
  type SeqEvent,
} from "./apply-history-delta.js";
export {
  applyTextDelta,
  endInFlightText,
  textOffsetsOf,
  type ApplyTextDeltaResult,
  type InFlightText,
  type InFlightTexts,
  type TextDeltaLike,
} from "./in-flight-text.js";
export {
  createDialogqlClient,
  watchHistory,
  type DialogqlClient,
  type DialogqlClientOptions,
  type WatchHistoryConnection,
} from "./create-client.js";
export type { ApiKeySource } from "./api-key.js";
export { graphql, type DocumentType } from "./generated/index.js";
// Every typed document (DialogsDocument, CreateResponseDocument, HistoryDeltaDocument, …) and the
// schema's types. The operations are written in ./operations/*.ts; codegen turns them into these.
export * from "./generated/graphql.js";
export {
  readHistorySnapshot,
  type HistoryEvent,
  type HistorySnapshot,
  type ResponseSummary,
} from "./read-history-snapshot.js";
export {
  DialogqlError,
  dataOf,
  errorCode,
  type ExecutionResult,
  type GraphQLErrorLike,
  type ResultSink,
  type Transport,
} from "./transport.js";
export type {
  HistoryDelta,
  HistoryState,
  HistoryWatcher,
  WatchHistoryOptions,
  WatchStatus,
} from "./history-watcher.js";
export { followHistory } from "./watch-history.js";
