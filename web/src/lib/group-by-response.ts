// The timeline's turns: a history's events cut into runs of one response each, in order.
import type { HistoryEvent, HistoryState } from "../../../src/client/index.js";

export interface Turn {
  responseId: string;
  events: HistoryEvent[];
}

export function groupByResponse(history: HistoryState): Turn[] {
  const turns: Turn[] = [];
  for (const event of history.events) {
    const last = turns.at(-1);
    if (last?.responseId === event.response.id) last.events.push(event);
    else turns.push({ responseId: event.response.id, events: [event] });
  }
  // A response that has written nothing yet still shows, so its status is visible.
  const tip = history.responseId;
  if (tip && turns.at(-1)?.responseId !== tip) turns.push({ responseId: tip, events: [] });
  return turns;
}
