// The model context of recent chain tips, kept in memory so that a generated turn reads only its
// own new events, not its whole history (seed 002: a turn's context is the previous context plus
// the previous input and output). Only a response whose status is final is kept: from then on its
// context never changes (events are append-only and a final response takes no more), so an entry
// is right on every instance. A response that is deleted (alone, with its dialog, by retention)
// leaves its entry unused — every turn that continues a response first finds it in the database —
// and this instance's write door drops it anyway (history-writes.ts), so memory goes to live chains.
// Entries share their event objects with the entries they grew from; the bound counts the events
// each entry lists, least recently used first out.
import type { StoredEvent } from "../formats/stored-event.js";

/** How many events the kept contexts list in all (about 8 bytes each: the objects are shared). */
export const DEFAULT_CONTEXT_CACHE_EVENTS = 1_000_000;

interface Entry {
  dialogId: string;
  context: readonly StoredEvent[];
}

export interface ContextCache {
  /** The context of `responseId` (its chain's events, root first, its own last), when kept. */
  get(responseId: string): readonly StoredEvent[] | undefined;
  /** Keeps the context of a response whose status is final. */
  keep(responseId: string, dialogId: string, context: readonly StoredEvent[]): void;
  dropResponse(responseId: string): void;
  dropDialog(dialogId: string): void;
  /** How many events the kept contexts list (for tests and metrics). */
  readonly size: number;
}

export function createContextCache(maxEvents = DEFAULT_CONTEXT_CACHE_EVENTS): ContextCache {
  // A Map iterates in insertion order: re-inserting on use makes its first key the least recently used.
  const entries = new Map<string, Entry>();
  let size = 0;
  const drop = (responseId: string) => {
    const entry = entries.get(responseId);
    if (!entry) return;
    entries.delete(responseId);
    size -= entry.context.length;
  };
  return {
    get(responseId) {
      const entry = entries.get(responseId);
      if (!entry) return undefined;
      entries.delete(responseId);
      entries.set(responseId, entry);
      return entry.context;
    },
    keep(responseId, dialogId, context) {
      if (context.length > maxEvents) return;
      drop(responseId);
      entries.set(responseId, { dialogId, context });
      size += context.length;
      for (const oldest of entries.keys()) {
        if (size <= maxEvents) break;
        drop(oldest);
      }
    },
    dropResponse: drop,
    dropDialog(dialogId) {
      for (const [responseId, entry] of entries) if (entry.dialogId === dialogId) drop(responseId);
    },
    get size() {
      return size;
    },
  };
}
