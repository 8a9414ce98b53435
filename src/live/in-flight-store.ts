// Where the text of in-flight events is held while it grows: in this process, or in Redis when the
// live fan-out goes through Redis, so every instance reads the same text and any instance can take
// the agent's next delta. An append checks its position against what is held and applies in one
// step (a Lua script in Redis), so two writers can never both extend the same text.
import type { InFlightHead, InFlightState, InFlightType, TextMark, TextTail } from "../vocabulary/in-flight.js";
import { type RedisCommands, withTimeout } from "./redis-messages.js";

export type AppendOutcome =
  { appended: true; length: number; bytes: number } | { appended: false; held: InFlightHead | null };

export interface InFlightStore {
  get(responseId: string): Promise<InFlightState | null>;
  /** Everything but the text: a delta's cost must not grow with the text before it. */
  head(responseId: string): Promise<InFlightHead | null>;
  /**
   * The text from `since` on (all of it without `since`), while it is still `part`: a checkpoint
   * reads only what was typed after the one before.
   */
  tail(responseId: string, part: number, since: TextMark | null): Promise<TextTail | null>;
  /**
   * Appends `delta` at `offset` when the held text is `part`/`type` and exactly `offset` long;
   * otherwise changes nothing and returns what is held.
   */
  append(
    responseId: string,
    at: { part: number; type: InFlightType; offset: number },
    delta: string,
    now: number,
  ): Promise<AppendOutcome>;
  /** Opens (or replaces) a response's text. */
  put(state: InFlightState): Promise<void>;
  /** Forgets a response's text, but only while it is still `part` (a newer part is kept). */
  delete(responseId: string, part: number): Promise<void>;
}

export const headOf = ({ text, ...head }: InFlightState): InFlightHead => ({
  ...head,
  length: text.length,
  bytes: Buffer.byteLength(text),
});

/** The process's own store; it also says what it holds (for the fallback's hand-back). */
export interface MemoryInFlightStore extends InFlightStore {
  responseIds(): string[];
  /** Forgets a response's text only while it is still `part` and `length` long, in one step. */
  deleteIfUnchanged(responseId: string, part: number, length: number): boolean;
}

export function memoryInFlightStore(): MemoryInFlightStore {
  const states = new Map<string, InFlightState & { bytes: number }>();
  return {
    responseIds: () => [...states.keys()],
    deleteIfUnchanged(responseId, part, length) {
      const state = states.get(responseId);
      if (state?.part !== part || state.text.length !== length) return false;
      return states.delete(responseId);
    },
    async get(responseId) {
      const state = states.get(responseId);
      if (!state) return null;
      const { bytes: _bytes, ...copy } = state;
      return copy;
    },
    async head(responseId) {
      const state = states.get(responseId);
      return state ? headOf(state) : null;
    },
    async tail(responseId, part, since) {
      const state = states.get(responseId);
      if (!state || state.part !== part) return null;
      const from = since?.part === part ? Math.min(since.length, state.text.length) : 0;
      return { head: headOf(state), from, text: state.text.slice(from) };
    },
    async append(responseId, at, delta, now) {
      const state = states.get(responseId);
      if (!state || state.part !== at.part || state.type !== at.type || state.text.length !== at.offset) {
        return { appended: false, held: state ? headOf(state) : null };
      }
      state.text += delta;
      state.bytes += Buffer.byteLength(delta);
      state.at = now;
      return { appended: true, length: state.text.length, bytes: state.bytes };
    },
    async put(state) {
      states.set(state.responseId, { ...state, bytes: Buffer.byteLength(state.text) });
    },
    async delete(responseId, part) {
      if (states.get(responseId)?.part === part) states.delete(responseId);
    },
  };
}

// Held text outlives a vanished agent only until the idle sweep ends its response; this is a
// backstop for a key nobody will ever delete (the response was deleted meanwhile).
const KEY_TTL_SECONDS = 24 * 3600;
// The response id in a hash tag: on a Redis Cluster both keys live on the slot of the response's
// `responseUpdated:{id}` channel, and a script touching both is no CROSSSLOT. The hash holds what
// the text is (part, type, lengths); the text is a string of its own, so a delta is an APPEND and
// a checkpoint a GETRANGE, neither copying the text before them.
const key = (responseId: string) => `dialogql:in-flight:{${responseId}}`;
const textKey = (responseId: string) => `dialogql:in-flight:{${responseId}}:text`;

// Every call is one EVAL: never a MULTI or pipeline, and never EVALSHA.
// - ioredis (5.8) retries a pipeline on a Redis Cluster whose node closed its connection (a master
//   that died or restarted) by sending its commands again, but a command's timeout is armed only
//   once: the resent commands have none, and the pipeline can wait forever for a node that never
//   answers them. A single command keeps its first timer across the cluster's retries.
// - EVAL carries its script, so a master that restarted (and lost its script cache) runs it all
//   the same; the script is a few hundred bytes, whatever the length of the text.

// KEYS: the hash, the text. ARGV: part, type, offset (UTF-16 units, as JavaScript counts), delta,
// delta's length in UTF-16 units, now, ttl. Lengths in UTF-16 units are kept in `length` since
// Redis counts bytes; APPEND answers the bytes.
const APPEND_SCRIPT = `
local held = redis.call('HMGET', KEYS[1], 'part', 'type', 'length')
if held[1] ~= ARGV[1] or held[2] ~= ARGV[2] or held[3] ~= ARGV[3] then return {-1, 0} end
local bytes = redis.call('APPEND', KEYS[2], ARGV[4])
local length = tonumber(ARGV[3]) + tonumber(ARGV[5])
redis.call('HSET', KEYS[1], 'length', tostring(length), 'at', ARGV[6])
redis.call('EXPIRE', KEYS[1], ARGV[7])
redis.call('EXPIRE', KEYS[2], ARGV[7])
return {length, bytes}
`;
// KEYS: the hash, the text. The head and the text's length in bytes, of one moment.
const HEAD_SCRIPT = `return {redis.call('HGETALL', KEYS[1]), redis.call('STRLEN', KEYS[2])}`;
// KEYS: the hash, the text. The head and the whole text, of one moment.
const GET_SCRIPT = `return {redis.call('HGETALL', KEYS[1]), redis.call('GET', KEYS[2])}`;
// KEYS: the hash, the text. ARGV: part, the byte to read from. The head and the text's tail of
// one moment, or nothing while the text is another part.
const TAIL_SCRIPT = `
local head = redis.call('HGETALL', KEYS[1])
local part = redis.call('HGET', KEYS[1], 'part')
if part ~= ARGV[1] then return {head, false, 0} end
return {head, redis.call('GETRANGE', KEYS[2], ARGV[2], -1), redis.call('STRLEN', KEYS[2])}
`;
// KEYS: the hash, the text. ARGV: dialogId, tenantId, part, type, length, at, text, ttl.
const PUT_SCRIPT = `
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[1], 'dialogId', ARGV[1], 'tenantId', ARGV[2], 'part', ARGV[3], 'type', ARGV[4],
  'length', ARGV[5], 'at', ARGV[6])
redis.call('SET', KEYS[2], ARGV[7])
redis.call('EXPIRE', KEYS[1], ARGV[8])
redis.call('EXPIRE', KEYS[2], ARGV[8])
return 0
`;
const DELETE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'part') == ARGV[1] then redis.call('DEL', KEYS[1], KEYS[2]) end
return 0
`;

function headFrom(responseId: string, held: Record<string, string>, bytes: number): InFlightHead | null {
  if (!held.part) return null;
  return {
    dialogId: held.dialogId!,
    responseId,
    tenantId: held.tenantId!,
    part: Number(held.part),
    type: held.type as InFlightType,
    at: Number(held.at),
    length: Number(held.length),
    bytes,
  };
}

const pairs = (flat: string[]) =>
  Object.fromEntries(flat.flatMap((value, i) => (i % 2 ? [] : [[value, flat[i + 1]!]])));

/** The command timeout the client was given (src/live/redis-messages.ts sets one on every connection). */
function commandTimeoutOf(redis: RedisCommands): number {
  const options = "redisOptions" in redis.options ? redis.options.redisOptions : redis.options;
  return (options as { commandTimeout?: number } | undefined)?.commandTimeout ?? 1_000;
}

export function redisInFlightStore(redis: RedisCommands): InFlightStore {
  // A backstop on top of ioredis's own timeout: whatever path a command takes inside the client
  // (a cluster's redirections and retries), the caller hears back, and can fall back to memory.
  const settleWithinMs = 2 * commandTimeoutOf(redis);
  const run = (script: string, responseId: string, ...args: string[]) =>
    withTimeout(redis.eval(script, 2, key(responseId), textKey(responseId), ...args), settleWithinMs);

  const tail = async (responseId: string, part: number, since: TextMark | null): Promise<TextTail | null> => {
    const sinceBytes = since?.part === part ? since.bytes : 0;
    const [flat, text, bytes] = (await run(TAIL_SCRIPT, responseId, String(part), String(sinceBytes))) as [
      string[],
      string | null,
      number,
    ];
    const head = headFrom(responseId, pairs(flat), bytes);
    if (!head || text == null) return null;
    // A mark past the end is of a text put since (taken up from a checkpoint): read it all.
    if (since && sinceBytes > 0 && (bytes < sinceBytes || head.length < since.length))
      return tail(responseId, part, null);
    return { head, from: sinceBytes > 0 ? since!.length : 0, text };
  };
  const head = async (responseId: string) => {
    const [flat, bytes] = (await run(HEAD_SCRIPT, responseId)) as [string[], number];
    return headFrom(responseId, pairs(flat), bytes);
  };
  const get = async (responseId: string): Promise<InFlightState | null> => {
    const [flat, text] = (await run(GET_SCRIPT, responseId)) as [string[], string | null];
    const found = headFrom(responseId, pairs(flat), 0);
    if (!found) return null;
    const { length: _length, bytes: _bytes, ...state } = found;
    return { ...state, text: text ?? "" };
  };
  return {
    get,
    head,
    tail,
    async append(responseId, at, delta, now) {
      const [length, bytes] = (await run(
        APPEND_SCRIPT,
        responseId,
        String(at.part),
        at.type,
        String(at.offset),
        delta,
        String(delta.length),
        String(now),
        String(KEY_TTL_SECONDS),
      )) as [number, number];
      return length < 0 ? { appended: false, held: await head(responseId) } : { appended: true, length, bytes };
    },
    async put(state) {
      await run(
        PUT_SCRIPT,
        state.responseId,
        state.dialogId,
        state.tenantId,
        String(state.part),
        state.type,
        String(state.text.length),
        String(state.at),
        state.text,
        String(KEY_TTL_SECONDS),
      );
    },
    async delete(responseId, part) {
      await run(DELETE_SCRIPT, responseId, String(part));
    },
  };
}
