// JSON.stringify in slices: the same text, made a few milliseconds at a time, with a turn of the
// event loop between slices, so a large answer (a whole history of 10,000 events is about 3 MB of
// JSON and 10–25 ms of one uninterrupted JSON.stringify) never holds up the small requests that
// arrive meanwhile.
//
// Arrays and the objects above them are walked here, with an explicit stack so a slice can end
// anywhere; everything else is handed to JSON.stringify: runs of up to 64 elements of an array
// (edges and their events) in one call, unless an element holds a longer array itself within a
// few levels, and every value with a toJSON method (Dates, errors). The output is byte for byte
// JSON.stringify's, with one difference a GraphQL result never shows: toJSON is called with
// another key ("" or the index within its run) than JSON.stringify would pass. A GraphQL result
// has no cycles; one here would not be reported as JSON.stringify reports it.
import { setImmediate as nextTurn } from "node:timers/promises";

export interface SliceOptions {
  /** How long one slice may run before the event loop gets a turn (ms). */
  sliceMs?: number;
  /** Stops between slices when aborted (the client went away), rejecting with its reason. */
  signal?: AbortSignal;
}

interface Frame {
  value: Record<string, unknown> | unknown[];
  /** An object's keys; undefined for an array. */
  keys?: string[];
  length: number;
  index: number;
  /** Members written so far (an object skips undefined and function values). */
  written: number;
  close: "]" | "}";
}

/** Arrays up to this length inside an element do not make it worth walking. */
const SHORT_ARRAY = 8;
/** How deep below an array element a longer array is looked for. */
const LOOK_DEPTH = 3;
/** Most elements of an array written by one JSON.stringify call. */
const RUN = 64;

export async function stringifyInSlices(value: unknown, options: SliceOptions = {}): Promise<string | undefined> {
  const sliceMs = options.sliceMs ?? 4;
  const root = begin(value);
  if (root === undefined || typeof root === "string") return root;
  const out: string[] = [root.close === "]" ? "[" : "{"];
  const stack: Frame[] = [root];
  let deadline = performance.now() + sliceMs;
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.index === frame.length) {
      out.push(frame.close);
      stack.pop();
      continue;
    }
    if (frame.keys) {
      const key = frame.keys[frame.index++]!;
      const member = begin((frame.value as Record<string, unknown>)[key]);
      if (member === undefined) continue;
      out.push(`${frame.written++ ? "," : ""}${JSON.stringify(key)}:`);
      write(member);
    } else {
      // A run of elements that hold no longer array is written by one JSON.stringify call
      // (without its brackets): one string per run instead of one per element.
      const array = frame.value as unknown[];
      const from = frame.index;
      let to = from;
      while (to < frame.length && to - from < RUN && !holdsLongArray(array[to], LOOK_DEPTH)) to++;
      if (frame.written++) out.push(",");
      if (to > from) {
        out.push(JSON.stringify(to - from === array.length ? array : array.slice(from, to)).slice(1, -1));
        frame.index = to;
      } else {
        write(begin(array[frame.index++]) ?? "null");
      }
    }
    if (performance.now() > deadline) {
      await nextTurn();
      options.signal?.throwIfAborted();
      deadline = performance.now() + sliceMs;
    }
  }
  return out.join("");

  function write(member: string | Frame) {
    if (typeof member === "string") return void out.push(member);
    out.push(member.close === "]" ? "[" : "{");
    stack.push(member);
  }
}

/** A value's text, or a frame to walk it, or undefined where JSON.stringify writes nothing. */
function begin(value: unknown): string | Frame | undefined {
  if (!isWalkable(value)) return JSON.stringify(value);
  if (Array.isArray(value)) return { value, length: value.length, index: 0, written: 0, close: "]" };
  const keys = Object.keys(value);
  return { value: value as Record<string, unknown>, keys, length: keys.length, index: 0, written: 0, close: "}" };
}

/** Arrays and plain objects; JSON.stringify writes the rest (primitives, toJSON, boxed values) alone. */
function isWalkable(value: unknown): value is object {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function" &&
    !(value instanceof Number || value instanceof String || value instanceof Boolean)
  );
}

function holdsLongArray(value: unknown, depth: number): boolean {
  if (!isWalkable(value)) return false;
  if (Array.isArray(value)) {
    if (value.length > SHORT_ARRAY) return true;
    return depth > 0 && value.some((item) => holdsLongArray(item, depth - 1));
  }
  if (depth === 0) return false;
  for (const key in value) if (holdsLongArray((value as Record<string, unknown>)[key], depth - 1)) return true;
  return false;
}
