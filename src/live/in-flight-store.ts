// Where the text of in-flight events is held while it grows: in this process, or in Redis when the
// live fan-out goes through Redis, so every instance reads the same text and any instance can take
// the agent's next delta. An append checks its position against what is held and applies in one
// step (a Lua script in Redis), so two writers can never both extend the same text.
import type { InFlightState, InFlightType } from "../vocabulary/in-flight.js";
import type { RedisCommands } from "./redis-messages.js";

export type AppendOutcome = { appended: true; length: number } | { appended: false; held: InFlightState | null };

export interface InFlightStore {
  get(responseId: string): Promise<InFlightState | null>;
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

export function memoryInFlightStore(): InFlightStore {
  const states = new Map<string, InFlightState>();
  return {
    async get(responseId) {
      const state = states.get(responseId);
      return state ? { ...state } : null;
    },
    async append(responseId, at, delta, now) {
      const state = states.get(responseId);
      if (!state || state.part !== at.part || state.type !== at.type || state.text.length !== at.offset) {
        return { appended: false, held: state ? { ...state } : null };
      }
      state.text += delta;
      state.at = now;
      return { appended: true, length: state.text.length };
    },
    async put(state) {
      states.set(state.responseId, { ...state });
    },
    async delete(responseId, part) {
      if (states.get(responseId)?.part === part) states.delete(responseId);
    },
  };
}

// Held text outlives a vanished agent only until the idle sweep ends its response; this is a
// backstop for a key nobody will ever delete (the response was deleted meanwhile).
const KEY_TTL_SECONDS = 24 * 3600;
// The response id in a hash tag: on a Redis Cluster the key lives on the slot of the response's
// `responseUpdated:{id}` channel, and every command touches this one key (no CROSSSLOT).
const key = (responseId: string) => `dialogql:in-flight:{${responseId}}`;

// KEYS[1] the hash; ARGV: part, type, offset (UTF-16 units, as JavaScript counts), delta, delta's
// length in UTF-16 units, now, ttl. Lengths are kept in `length` since Lua counts bytes.
const APPEND_SCRIPT = `
local held = redis.call('HMGET', KEYS[1], 'part', 'type', 'length')
if held[1] ~= ARGV[1] or held[2] ~= ARGV[2] or held[3] ~= ARGV[3] then return -1 end
redis.call('HSET', KEYS[1], 'text', (redis.call('HGET', KEYS[1], 'text') or '') .. ARGV[4],
  'length', tostring(tonumber(ARGV[3]) + tonumber(ARGV[5])), 'at', ARGV[6])
redis.call('EXPIRE', KEYS[1], ARGV[7])
return tonumber(ARGV[3]) + tonumber(ARGV[5])
`;
const DELETE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'part') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;

export function redisInFlightStore(redis: RedisCommands): InFlightStore {
  const get = async (responseId: string): Promise<InFlightState | null> => {
    const held = await redis.hgetall(key(responseId));
    if (!held.part) return null;
    return {
      dialogId: held.dialogId!,
      responseId,
      tenantId: held.tenantId!,
      part: Number(held.part),
      type: held.type as InFlightType,
      text: held.text ?? "",
      at: Number(held.at),
    };
  };
  return {
    get,
    async append(responseId, at, delta, now) {
      const length = (await redis.eval(
        APPEND_SCRIPT,
        1,
        key(responseId),
        String(at.part),
        at.type,
        String(at.offset),
        delta,
        String(delta.length),
        String(now),
        String(KEY_TTL_SECONDS),
      )) as number;
      return length < 0 ? { appended: false, held: await get(responseId) } : { appended: true, length };
    },
    async put(state) {
      await redis
        .multi()
        .del(key(state.responseId))
        .hset(key(state.responseId), {
          dialogId: state.dialogId,
          tenantId: state.tenantId,
          part: String(state.part),
          type: state.type,
          text: state.text,
          length: String(state.text.length),
          at: String(state.at),
        })
        .expire(key(state.responseId), KEY_TTL_SECONDS)
        .exec();
    },
    async delete(responseId, part) {
      await redis.eval(DELETE_SCRIPT, 1, key(responseId), String(part));
    },
  };
}

/**
 * The Redis store, with this process's memory as the fallback while Redis cannot answer (down, or
 * stalled past REDIS_COMMAND_TIMEOUT_MS): in-flight text is then held by the instance that takes
 * the deltas, as it is without Redis, instead of failing the writes and subscriptions that look at
 * it. Committed history never depends on it; text held only here is lost with the process, as
 * in-flight text is.
 */
export function withLocalFallback(
  primary: InFlightStore,
  local: InFlightStore,
  onFallback: (error: Error) => void,
): InFlightStore {
  const either = <T>(run: (store: InFlightStore) => Promise<T>): Promise<T> =>
    run(primary).catch((error: Error) => {
      onFallback(error);
      return run(local);
    });
  return {
    get: async (responseId) => (await local.get(responseId)) ?? either((store) => store.get(responseId)),
    append: async (responseId, at, delta, now) =>
      (await local.get(responseId))
        ? local.append(responseId, at, delta, now)
        : either((store) => store.append(responseId, at, delta, now)),
    put: (state) => either((store) => store.put(state)),
    async delete(responseId, part) {
      await local.delete(responseId, part);
      await primary.delete(responseId, part).catch(onFallback);
    },
  };
}
