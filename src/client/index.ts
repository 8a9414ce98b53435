// dialogql/client: what a frontend imports to follow a dialog live.
export {
  applyHistoryDelta,
  type ApplyHistoryDeltaResult,
  type HistoryDeltaLike,
  type SeqEvent,
} from "./apply-history-delta.js";
