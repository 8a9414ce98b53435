// How many events of each type a response holds, and how many its segment holds up to it, kept
// on the response row so that a context's totals are a sum of one row per segment rather than a
// count of its events. Every path that adds events to a response adds them to its counts in the
// same statement or transaction (src/store: createResponse's statement, appendEvents and
// interruptResponse, importMessages, and forkDialog, which copies them);
// test/event-counts.test.ts and test/context-addressing.test.ts hold them to a count of the events. (A trigger on Event did
// the same, but cost a third of the raw write throughput of the embedded database.)
import type { HistoryEventType } from "../generated/prisma/enums.js";

export const countColumns = {
  HUMAN: "humanEvents",
  AI: "aiEvents",
  REASONING: "reasoningEvents",
  TOOL_CALL: "toolCallEvents",
  TOOL_RESULT: "toolResultEvents",
  SYSTEM: "systemEvents",
} as const satisfies Record<HistoryEventType, string>;

/**
 * The same counts summed over a response's segment, from the segment's first response through
 * this one (docs/architecture.md, "Context addressing"): a context's totals are these counts of
 * the last response it holds in each of its segments, added up.
 */
export const segmentCountColumns = {
  HUMAN: "humanEventsInSegment",
  AI: "aiEventsInSegment",
  REASONING: "reasoningEventsInSegment",
  TOOL_CALL: "toolCallEventsInSegment",
  TOOL_RESULT: "toolResultEventsInSegment",
  SYSTEM: "systemEventsInSegment",
} as const satisfies Record<HistoryEventType, string>;

export type EventCounts = Record<(typeof countColumns)[HistoryEventType], number>;

export function eventCounts(events: readonly { type: HistoryEventType }[]): EventCounts {
  const counts = Object.fromEntries(Object.values(countColumns).map((column) => [column, 0])) as EventCounts;
  for (const event of events) counts[countColumns[event.type]]++;
  return counts;
}

/** How many events a response holds (input and output): the index its next event will have. */
export function eventCountOf(response: { [column in (typeof countColumns)[HistoryEventType]]: number }) {
  return (
    response.humanEvents +
    response.aiEvents +
    response.reasoningEvents +
    response.toolCallEvents +
    response.toolResultEvents +
    response.systemEvents
  );
}
