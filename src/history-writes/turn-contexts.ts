// The context a generated turn is given, read through the context cache (context-cache.ts): the
// kept context of the response it continues, to which the turn adds its own input as it was
// parsed for its write, so a turn at depth 1,000 reads nothing of its history. The first turn that continues a response nobody kept here reads that
// response's context whole and keeps it when the response is final; a turn keeps its own context
// once its end is committed, for the turn that continues it.
import type { StoredEvent } from "../formats/stored-event.js";
import { readModelContext, readResponseModelEvents } from "../services/context.js";
import type { Store } from "../store/store.js";
import type { ContextCache } from "./context-cache.js";

export interface TurnPlace {
  responseId: string;
  dialogId: string;
  previousResponseId: string | null;
}

/** The context the turn at `turn` continues (its chain's events before its own, root first): kept, or read. */
export function readEarlierContext(store: Store, cache: ContextCache, turn: TurnPlace) {
  const { previousResponseId, dialogId } = turn;
  if (!previousResponseId) return [];
  return cache.get(previousResponseId) ?? readEarlier(store, cache, previousResponseId, dialogId);
}

async function readEarlier(store: Store, cache: ContextCache, responseId: string, dialogId: string) {
  const [context, [row]] = await Promise.all([
    readModelContext(responseId, store.database, dialogId),
    store.database.query<{ status: string }>(`SELECT status FROM "Response" WHERE "dialogId" = $1 AND id = $2`, [
      dialogId,
      responseId,
    ]),
  ]);
  if (row && row.status !== "IN_PROGRESS") cache.keep(responseId, dialogId, context);
  return context;
}

/**
 * Keeps the context of a turn whose end is committed: `earlier` (the context it continued) and
 * its own events, input and output, as the database holds them.
 */
export async function keepTurnContext(
  store: Store,
  cache: ContextCache,
  turn: TurnPlace,
  earlier: readonly StoredEvent[],
): Promise<void> {
  const own = await readResponseModelEvents(turn.dialogId, turn.responseId, store.database);
  cache.keep(turn.responseId, turn.dialogId, [...earlier, ...own]);
}
