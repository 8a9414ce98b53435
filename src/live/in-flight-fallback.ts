// The Redis store of in-flight text, with this process's memory as the fallback while Redis cannot
// answer (down, or stalled past REDIS_COMMAND_TIMEOUT_MS — which an event loop starved long
// enough also looks like): the text is then held by this instance instead of failing the writes
// and subscriptions that look at it. Committed history never depends on it.
//
// - The texts this instance wrote to Redis are mirrored here (a bounded number, least recently
//   written out first), so when Redis stops answering the fallback starts from the whole text this
//   instance last wrote, not from an empty store or an older checkpoint: the agent's next delta
//   still fits where it said.
// - A text held here is handed back to Redis as soon as Redis answers again (after the next delta
//   appended to it, and at shutdown), so a stall does not pin the text to this process for the
//   rest of its answer, where other instances cannot see it and a restart would lose it.
import type { InFlightState } from "../vocabulary/in-flight.js";
import type { InFlightStore, MemoryInFlightStore } from "./in-flight-store.js";

export interface FallbackInFlightStore extends InFlightStore {
  /** Hands every text held here back to Redis (at shutdown); what Redis refuses stays here. */
  handBack(): Promise<void>;
}

/**
 * How much of the texts written to Redis is mirrored in memory: the answers being typed now. Bound
 * by count and by characters (a text may be up to MAX_EVENT_BYTES), least recently written out first.
 */
const MIRRORED_TEXTS = 1_000;
const MIRRORED_CHARS = 32 * 1024 * 1024;

export function withLocalFallback(
  primary: InFlightStore,
  local: MemoryInFlightStore,
  onFallback: (error: Error) => void,
): FallbackInFlightStore {
  const mirror = new TextMirror(MIRRORED_TEXTS, MIRRORED_CHARS);
  /** Redis, or when it fails this process, starting from the mirror of what this instance wrote. */
  const either = <T>(responseId: string, run: (store: InFlightStore) => Promise<T>): Promise<T> =>
    run(primary).catch(async (error: Error) => {
      onFallback(error);
      const written = mirror.get(responseId);
      if (written && !(await local.get(responseId))) await local.put(written);
      return run(local);
    });
  const handingBack = new Map<string, Promise<void>>();

  /**
   * Puts the text held here into Redis and forgets it here if no delta came meanwhile (one that
   * did keeps it here: the next hand-back takes it). Reads look here first, so until the text is
   * forgotten here nobody reads Redis's copy. One hand-back per response at a time.
   */
  function handBackOne(responseId: string): Promise<void> {
    const running = handingBack.get(responseId);
    if (running) return running;
    const attempt = (async () => {
      const state = await local.get(responseId);
      if (!state) return;
      await primary.put(state);
      mirror.set(state);
      local.deleteIfUnchanged(responseId, state.part, state.text.length);
    })()
      // Redis still away: the text stays here, and the next delta tries again.
      .catch(() => {})
      .finally(() => handingBack.delete(responseId));
    handingBack.set(responseId, attempt);
    return attempt;
  }

  return {
    get: async (responseId) => (await local.get(responseId)) ?? either(responseId, (store) => store.get(responseId)),
    head: async (responseId) => (await local.head(responseId)) ?? either(responseId, (store) => store.head(responseId)),
    tail: async (responseId, part, since) =>
      (await local.tail(responseId, part, since)) ?? either(responseId, (store) => store.tail(responseId, part, since)),
    async append(responseId, at, delta, now) {
      if (await local.get(responseId)) {
        const outcome = await local.append(responseId, at, delta, now);
        // Not awaited: while Redis is away a delta must not wait for its timeout.
        if (outcome.appended) void handBackOne(responseId);
        return outcome;
      }
      return either(responseId, async (store) => {
        const outcome = await store.append(responseId, at, delta, now);
        if (store === primary) mirror.extend(responseId, outcome.appended ? { ...at, delta, now } : null);
        return outcome;
      });
    },
    put: (state) =>
      either(state.responseId, async (store) => {
        await store.put(state);
        if (store === primary) mirror.set(state);
      }),
    async delete(responseId, part) {
      // After a hand-back under way, so its put cannot bring the text back once it is deleted.
      await handingBack.get(responseId);
      mirror.delete(responseId, part);
      await local.delete(responseId, part);
      await primary.delete(responseId, part).catch(onFallback);
    },
    async handBack() {
      // Twice: a hand-back under way when this is called took a text that may have grown since.
      for (const _pass of [1, 2]) await Promise.all(local.responseIds().map(handBackOne));
    },
  };
}

/** The texts this instance last wrote to Redis, as Redis holds them after its write. */
class TextMirror {
  private readonly texts = new Map<string, InFlightState>();
  private chars = 0;
  constructor(
    private readonly maxTexts: number,
    private readonly maxChars: number,
  ) {}

  get(responseId: string): InFlightState | undefined {
    return this.texts.get(responseId);
  }

  /** Remembers a text (most recent last; past either bound the least recently written go). */
  set(state: InFlightState) {
    this.forget(state.responseId);
    this.texts.set(state.responseId, state);
    this.chars += state.text.length;
    while (this.texts.size > this.maxTexts || this.chars > this.maxChars) this.forget(this.texts.keys().next().value!);
  }

  /**
   * After an append to Redis: the mirrored text grows by `delta` when it is the text the append
   * was made to; otherwise (another instance wrote meanwhile, or the append was refused) the
   * mirror no longer knows the text, and forgets it.
   */
  extend(
    responseId: string,
    appended: { part: number; type: string; offset: number; delta: string; now: number } | null,
  ) {
    const kept = this.texts.get(responseId);
    if (!kept) return;
    const fits = appended && kept.part === appended.part && kept.type === appended.type;
    if (!fits || kept.text.length !== appended.offset) return this.forget(responseId);
    this.set({ ...kept, text: kept.text + appended.delta, at: appended.now });
  }

  delete(responseId: string, part: number) {
    if (this.texts.get(responseId)?.part === part) this.forget(responseId);
  }

  private forget(responseId: string) {
    const kept = this.texts.get(responseId);
    if (!kept) return;
    this.chars -= kept.text.length;
    this.texts.delete(responseId);
  }
}
