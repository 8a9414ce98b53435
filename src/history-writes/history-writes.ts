// The one door for every change a watcher should see. GraphQL resolvers, REST, the Responses API
// at /v1, the model loop (src/generation/turn-sink.ts) and the retention sweeper call these;
// nothing else publishes to the live bus. Each write is made by the services (the rules) through
// the store's write primitive, and published here after its commit, never inside it; publishing
// sends ids and seqs, which subscribers re-read (src/live/).
//
// The lifecycle of an IN_PROGRESS response is text-aware: the open text being typed into it
// (held-texts.ts) is committed, kept or dropped by the write that ends it (lifecycle-writes.ts),
// and a text delta is published at once with no seq (text-writes.ts). One instance per app, made
// by buildApp and reached as `ctx.writes`; every call is safe from any instance.
import type { StoredEvent } from "../formats/stored-event.js";
import type { LiveBus } from "../live/live-bus.js";
import { logger } from "../logger.js";
import { deleteResponse } from "../services/delete-response.js";
import * as dialogs from "../services/dialogs.js";
import { forkDialog, type ForkDialogInput } from "../services/fork.js";
import type { ImportedConversation } from "../services/chat-exports/index.js";
import { storeConversation } from "../services/import-chats.js";
import { importMessages, type ImportMessagesInput } from "../services/import-messages.js";
import type {
  AppendEventsInput,
  CompleteResponseInput,
  InterruptResponseInput,
} from "../services/response-lifecycle.js";
import { createResponse } from "../services/responses.js";
import { sweepExpired, type SweepOptions } from "../services/retention.js";
import type { CreateResponseInput } from "../services/write-result.js";
import type { Store } from "../store/store.js";
import { type ContextCache, createContextCache } from "./context-cache.js";
import { createHeldTexts, dropText, textOf, textsOfDialog } from "./held-texts.js";
import type { InFlightOptions, TextDeltaInput } from "./in-flight-input.js";
import * as lifecycle from "./lifecycle-writes.js";
import { appendTextDelta, type TextWriterOptions } from "./text-writes.js";
import { keepTurnContext, readEarlierContext, type TurnPlace } from "./turn-contexts.js";

export type { InFlightState, InFlightType } from "../vocabulary/in-flight.js";
export type { TurnPlace } from "./turn-contexts.js";
export type { EndingWrite, InFlightOptions, TextDeltaInput, TextPosition } from "./in-flight-input.js";
export { inFlightOptionsFrom } from "./in-flight-input.js";

export type HistoryWrites = ReturnType<typeof createHistoryWrites>;

export function createHistoryWrites(
  store: Store,
  live: LiveBus,
  options: InFlightOptions,
  contexts: ContextCache = createContextCache(),
) {
  const held = createHeldTexts(store, live, options);
  /** Publishes what `write` committed, once it has, and answers it. */
  async function committed<W extends Parameters<LiveBus["publish"]>[0]>(write: Promise<W>): Promise<W> {
    const written = await write;
    live.publish(written);
    return written;
  }

  const sweeper =
    options.sweep &&
    setInterval(() => {
      lifecycle
        .endIdleResponses(held)
        .catch((error: Error) => logger.warn(`[in-flight] idle sweep failed: ${error.message}`));
    }, options.sweepIntervalMs);
  if (sweeper) sweeper.unref();

  return {
    /** The longest delta streamText takes (MAX_TEXT_DELTA_CHARS). */
    maxDeltaChars: options.maxDeltaChars,

    // Dialogs. createDialog and updateDialog change no history and publish nothing.
    createDialog: (input: dialogs.DialogFieldsInput, tenantId: string) => dialogs.createDialog(store, input, tenantId),
    updateDialog: (id: string, input: dialogs.DialogFieldsInput) => dialogs.updateDialog(store, id, input),
    clearDialog: (id: string) => committed(dialogs.clearDialog(store, id)).finally(() => contexts.dropDialog(id)),
    deleteDialog: (id: string) => committed(dialogs.deleteDialog(store, id)).finally(() => contexts.dropDialog(id)),
    forkDialog: (input: ForkDialogInput) => committed(forkDialog(store, input)),
    importMessages: (input: ImportMessagesInput) => committed(importMessages(store, input)),
    /**
     * A conversation of a chat app's export, as a new dialog of the tenant (or the one imported
     * before). Nothing is published: nobody can be following a dialog that did not exist.
     */
    importConversation: (conversation: ImportedConversation, tenantId: string) =>
      storeConversation(store, conversation, tenantId),

    // Responses.
    /** The turn's usage is charged to `apiKeyId` (docs/usage.md). */
    createResponse: (input: CreateResponseInput, tenantId: string, apiKeyId: string | null = null) =>
      committed(createResponse(store, input, tenantId, apiKeyId)),
    /** A response nobody continues, with its events; its open text is dropped. */
    deleteResponse: (id: string, dialogId: string) =>
      held.queue.run(id, async () => {
        const deleted = await committed(deleteResponse(store, id, dialogId));
        contexts.dropResponse(id);
        await dropText(held, id);
        return deleted;
      }),

    // The lifecycle of an IN_PROGRESS response, and the text typed into it.
    /**
     * Appends to the response's open text, opening one when there is none. `offset` (UTF-16 code
     * units) must be where the text ends, or a TextOffsetError says where it does; omitted, the
     * delta is appended at the end. A delta of the other type first commits the open text. With
     * `tenantId`, another tenant's response is NOT_FOUND.
     */
    streamText: (input: TextDeltaInput, tenantId?: string, options?: TextWriterOptions) =>
      appendTextDelta(held, input, tenantId, options),
    commitText: (responseId: string) => lifecycle.commitText(held, responseId),
    appendEvents: (input: AppendEventsInput) => lifecycle.appendEvents(held, input),
    completeResponse: (input: CompleteResponseInput) => lifecycle.completeResponse(held, input),
    interruptResponse: (input: InterruptResponseInput) => lifecycle.interruptResponse(held, input),
    cancelResponse: (responseId: string) => lifecycle.cancelResponse(held, responseId),
    /** Ends responses whose agent sent nothing for IN_FLIGHT_IDLE_TIMEOUT (run every sweepIntervalMs with `sweep`). */
    endIdleResponses: () => lifecycle.endIdleResponses(held),

    /** RETENTION of the store (null: dialogs are kept forever). */
    retentionMs: store.retentionMs,
    /** Retention: deletes every dialog expired at `now`; each one's streams end. */
    async sweepExpired(sweep: SweepOptions = {}) {
      const swept = await sweepExpired(store, sweep);
      for (const id of swept.deletedDialogIds) {
        contexts.dropDialog(id);
        live.publish({ dialogId: id, deleted: true });
      }
      return swept;
    },

    // The context a generated turn is given (turn-contexts.ts), read through the cache of chain tips.
    /** The context a turn just opened continues: its chain's events before its own, root first. */
    earlierContext: (turn: TurnPlace) => readEarlierContext(store, contexts, turn),
    /** The kept context of `responseId` (its chain's events, its own last), or undefined: none is kept here. */
    keptContext: (responseId: string) => contexts.get(responseId),
    /** Keeps the context of a turn whose final status is committed, `earlier` being the context it continued. */
    keepTurnContext: (turn: TurnPlace, earlier: readonly StoredEvent[]) =>
      keepTurnContext(store, contexts, turn, earlier),

    // What subscribers read of the open texts.
    textOf: (responseId: string) => textOf(held, responseId),
    textsOfDialog: (dialogId: string) => textsOfDialog(held, dialogId),

    close() {
      if (sweeper) clearInterval(sweeper);
    },
    /** Before the live bus closes: texts held in this process during a Redis stall go back to Redis. */
    handBackTexts: () => held.handBack(),
  };
}
