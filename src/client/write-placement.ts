// Where a committed write goes in what a watcher holds (src/client/watch-history.ts): the list of
// one context, the head's or a pinned response's. A decision from what is held and the write alone.
import type { HistoryDelta, HistoryState } from "./history-watcher.js";

/** A delta of a write (not of a clear): it names its response. */
export type WrittenDelta = HistoryDelta & { responseId: string; response: NonNullable<HistoryDelta["response"]> };

/** What the watcher holds that places a write. */
export interface HeldList {
  /** The list's tip: the head followed, or the pinned response. */
  tip: string | null;
  pinned: boolean;
  /** The responses whose events are in the list, and the tip. */
  chain: ReadonlySet<string>;
  responses: HistoryState["responses"];
}

/**
 * "extend": the write's events follow the list's and its response is the tip now; "response": it
 * changed a response of the list but none of its events; "seq": only the dialog's seq moves;
 * "reread": the list must be read again.
 */
export type Placement = "extend" | "response" | "seq" | "reread";

/** `hasFresh`: the write brings events the list does not hold yet. */
export function placeWrite(held: HeldList, write: WrittenDelta, hasFresh: boolean): Placement {
  if (write.responseId === held.tip) return "extend";
  const parentId = write.response.previousResponse?.id ?? null;
  // A new turn on the head's branch: it is the new head, and its events follow ours.
  if (!held.pinned && parentId === held.tip) return "extend";
  // Events written to an earlier response of the context sit before later responses' events.
  if (held.chain.has(write.responseId)) return hasFresh ? "reread" : "response";
  // Another branch. Following the head, it may have become the head; pinned, it matters only if
  // it could be an ancestor the list has no event of yet.
  const tipDepth = held.tip ? (held.responses[held.tip]?.depth ?? 0) : 0;
  if (!held.pinned || (hasFresh && write.response.depth < tipDepth)) return "reread";
  return "seq";
}
