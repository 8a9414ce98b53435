// A long list whose items are completed a chunk per turn of the event loop. A page of 10,000
// events used to be completed (every event's fields resolved and checked by the compiled query)
// in one synchronous run of 50–200 ms on a loaded 2-core machine, during which no other request
// moved; with its edges in chunks of 500 that became promises settled one turn apart, the
// executor completes each chunk as it settles, and small requests' I/O runs in between
// (issue 20; src/server/large-answers.ts bounds how many such lists are in production at once).
// The answer is the same: a list of promises completes to the list of their values, in order.
import { setImmediate as nextTurn } from "node:timers/promises";

const CHUNK = 500;

export function inTurns<T>(items: readonly T[], from: number): (T | Promise<T>)[] {
  if (items.length < from) return items as T[];
  const listed: (T | Promise<T>)[] = items.slice(0, CHUNK);
  let turn: Promise<unknown> = Promise.resolve();
  for (let start = CHUNK; start < items.length; start += CHUNK) {
    const settled = (turn = turn.then(() => nextTurn()));
    for (let i = start; i < Math.min(start + CHUNK, items.length); i++) listed.push(settled.then(() => items[i]!));
  }
  return listed;
}
