// JSON.stringify in slices: the same text, made a few milliseconds at a time, with a turn of the
// event loop between slices, so a large answer (a whole history of 10,000 events is about 3 MB of
// JSON and 10–25 ms of one uninterrupted JSON.stringify) never holds up the small requests that
// arrive meanwhile.
//
// Arrays and the objects above them are walked here, with an explicit stack so a slice can end
// anywhere; everything else is handed to JSON.stringify whole: each element of an array (an edge
// and its event) unless it holds a longer array itself within a few levels, and every value with
// a toJSON method (Dates, errors). The output is byte for byte JSON.stringify's, with one
// difference a GraphQL result never shows: toJSON is called with the key "" rather than the
// property's name. Like JSON.stringify, a cycle is an error (here: the stack grows until it throws).
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
/** How many members are written between two looks at the clock. */
const CLOCK_EVERY = 32;

export async function stringifyInSlices(value: unknown, options: SliceOptions = {}): Promise<string | undefined> {
  const sliceMs = options.sliceMs ?? 4;
  const root = begin(value, false);
  if (root === undefined || typeof root === "string") return root;
  const out: string[] = [root.close === "]" ? "[" : "{"];
  const stack: Frame[] = [root];
  let deadline = performance.now() + sliceMs;
  let members = 0;
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.index === frame.length) {
      out.push(frame.close);
      stack.pop();
      continue;
    }
    const i = frame.index++;
    if (frame.keys) {
      const key = frame.keys[i]!;
      const member = begin((frame.value as Record<string, unknown>)[key], false);
      if (member === undefined) continue;
      out.push(`${frame.written++ ? "," : ""}${JSON.stringify(key)}:`);
      write(member);
    } else {
      if (frame.written++) out.push(",");
      write(begin((frame.value as unknown[])[i], true) ?? "null");
    }
    if (++members % CLOCK_EVERY === 0 && performance.now() > deadline) {
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
function begin(value: unknown, isElement: boolean): string | Frame | undefined {
  if (value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    if (isElement && !holdsLongArray(value, LOOK_DEPTH)) return JSON.stringify(value);
    return { value, length: value.length, index: 0, written: 0, close: "]" };
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return JSON.stringify(value);
  if (isElement && !holdsLongArray(value, LOOK_DEPTH)) return JSON.stringify(value);
  const keys = Object.keys(value);
  return { value: value as Record<string, unknown>, keys, length: keys.length, index: 0, written: 0, close: "}" };
}

function holdsLongArray(value: object, depth: number): boolean {
  if (Array.isArray(value)) {
    if (value.length > SHORT_ARRAY) return true;
    if (depth === 0) return false;
    return value.some((item) => item !== null && typeof item === "object" && holdsLongArray(item, depth - 1));
  }
  if (depth === 0) return false;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== null && typeof item === "object" && holdsLongArray(item, depth - 1)) return true;
  }
  return false;
}
