// Where a generated turn goes. A stored turn is written through the app's history writes
// (src/history-writes/), as every other turn is — createResponse (IN_PROGRESS, with its input),
// then streamText: each text and reasoning delta is appended as the model types it, so subscribers
// watch the answer grow and can resume it mid-answer; at the end of a model step the typed text is
// committed as one event together with the step's tool calls, and completeResponse sets the final
// status and usage. The history writes publish each committed write. An unstored turn
// (`store: false`) reads the context it continues and keeps nothing.
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { newResponseId } from "../ids.js";
import type { HistoryWrites, InFlightType } from "../history-writes/history-writes.js";
import { logger } from "../logger.js";
import type { TenantScopes } from "../auth/tenant-scope.js";
import { NotFoundError, NotInProgressError } from "../errors.js";
import type { StoredEvent } from "../formats/stored-event.js";
import { readModelContext, readResponseModelEvents } from "../services/context.js";
import { parseEventInputs } from "../services/event-input.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import type { UsageInput, WriteResult } from "../services/responses.js";
import { chargeUnstoredTurn } from "../store/usage.js";
import type { Store } from "../store/store.js";

export interface TurnStart {
  tenantId: string;
  /** The API key charged for the turn's usage (null: none). */
  apiKeyId?: string | null;
  dialogId?: string | null;
  previousResponseId?: string | null;
  /** A new first turn of `dialogId` (a branch from its start) instead of one after its head. */
  fromStart?: boolean | null;
  model: string;
  input: HistoryEventInput[];
  metadata?: Record<string, unknown>;
  /** A /v1 request's `Idempotency-Key` and the hash of its request (src/responses-api/idempotent-turns.ts). */
  idempotency?: { key: string; requestHash: string } | null;
}

/**
 * Thrown by `begin` when the turn's idempotency key already stored a turn for the same request
 * (a retry that raced the first call): nothing new is stored, and the earlier turn is the answer.
 */
export class EarlierTurn extends Error {
  constructor(readonly earlier: WriteResult) {
    super(`response ${earlier.responseId} already answers this idempotency key`);
  }
}

export interface BegunTurn {
  responseId: string;
  /** null for an unstored turn. */
  dialogId: string | null;
  /** The response this turn continues (the explicit one, or the dialog's head). */
  previousResponseId: string | null;
  createdAt: Date;
  /** The whole context the model is given: the chain's events, root first, then the new input. */
  context: StoredEvent[];
  /** How many of `context`'s events are the context the turn continues (the rest are its input). */
  continued: number;
}

/** What a turn's context will be, known before its opening write commits (TurnSink.foresee). */
export interface ForeseenTurn {
  /** The response the turn will continue (null: none). */
  previousResponseId: string | null;
  /** The whole context the model will be given, as BegunTurn.context. */
  context: StoredEvent[];
}

export type FinalStatus = Extract<ResponseStatus, "COMPLETED" | "FAILED" | "INCOMPLETE" | "CANCELLED">;

export interface TurnSink {
  begin(start: TurnStart): Promise<BegunTurn>;
  /**
   * The context `begin` will give the turn when it is known now, with no read and before anything
   * is written (src/generation/first-call.ts); null when only the opening write can tell.
   */
  foresee?(start: TurnStart): ForeseenTurn | null;
  /** One delta of the text or reasoning the model is typing; called in order, not awaited. */
  /** `onEnded`: the response turned out to be no longer IN_PROGRESS (ended elsewhere: a cancel). */
  textDelta(responseId: string, type: InFlightType, delta: string, onEnded?: () => void): void;
  /**
   * The end of a model step: its events (text and reasoning ones included, as the model gave them).
   * `ownCalls`: the tool calls (call id → name) the turn's committed writes stored, which a result
   * among `events` may answer without the write looking for them. The turn is given as begun: its
   * dialog is known, so the write does not look it up.
   */
  append(
    turn: Pick<BegunTurn, "responseId" | "dialogId">,
    events: HistoryEventInput[],
    ownCalls?: ReadonlyMap<string, string>,
  ): Promise<void>;
  /**
   * Whether `finish` commits the text typed since the last `append` (the turn's answer) in the
   * same write as the final status: a step of typed text only is then not appended on its own
   * (src/generation/turn-writer.ts), and the answer and the end are one write, one delta.
   */
  commitsTextAtFinish?: boolean;
  /**
   * `at` is the turn's end as its answer states it, so the stored completedAt is the same instant.
   * `answer`: the last step's answer as the model gave it, left to be committed here
   * (commitsTextAtFinish): its typed text is committed, or it whole where that text is not held.
   */
  finish(
    turn: BegunTurn,
    status: FinalStatus,
    usage: UsageInput | null,
    error: unknown,
    at: Date,
    answer?: HistoryEventInput | null,
  ): Promise<void>;
  /** The metadata of context events, by id (the model's context leaves metadata out). */
  eventMetadata(eventIds: string[]): Promise<Map<string, unknown>>;
}

const readMetadata = async (store: Store, eventIds: string[]) => {
  if (!eventIds.length) return new Map<string, unknown>();
  const rows = await store.prisma.event.findMany({
    where: { id: { in: eventIds } },
    select: { id: true, metadata: true },
  });
  return new Map<string, unknown>(rows.map((row) => [row.id, row.metadata]));
};

/** A turn's input as the model reads it (a ValidationError for input no write would take). */
const contextEvents = (store: Store, input: HistoryEventInput[]): StoredEvent[] =>
  parseEventInputs(store.writeLimits, input, ["input"]).map((event) => ({
    ...event,
    providerFields: event.providerFields ?? null,
  }));

/**
 * Whether a step's event is text the model typed, streamed as in-flight text, which the writes
 * commit from what they hold (not written from the event): an answer, or reasoning with nothing to
 * send back upstream (that is written whole).
 */
export const isTypedText = (event: HistoryEventInput) =>
  Boolean(event.ai || (event.reasoning && !event.reasoning.providerFields));

/** An MCP approval request (src/mcp/mcp-events.ts: a tool call with call id `mcpr_…`). */
const isApprovalRequest = (event: StoredEvent) =>
  event.type === "TOOL_CALL" && Boolean(event.callId?.startsWith("mcpr_"));

/**
 * The model's text is checkpointed at the bounds only, its first delta included
 * (src/history-writes/text-writes.ts): an answer committed within them costs no checkpoint on the
 * way to the turn's end; this process runs the turn, and what a restart may lose stays in the bounds.
 */
const MODEL_TEXT = { firstCheckpointAtBound: true };

/** What a stored turn writes through: the app's store, history writes and tenant cache. */
export interface StoredTurnsDeps {
  store: Store;
  writes: HistoryWrites;
  tenants: TenantScopes;
}

export function storedTurns({ store, writes, tenants }: StoredTurnsDeps): TurnSink {
  return {
    async begin(start) {
      const write = await writes.createResponse(
        {
          dialogId: start.dialogId,
          previousResponseId: start.previousResponseId,
          fromStart: start.fromStart ?? null,
          model: start.model,
          input: start.input,
          metadata: start.metadata ?? {},
          idempotencyKey: start.idempotency?.key,
          requestHash: start.idempotency?.requestHash,
        },
        start.tenantId,
        start.apiKeyId ?? null,
      );
      if (start.idempotency && !write.written) throw new EarlierTurn(write);
      tenants.rememberWrite(write, start.tenantId);
      const response =
        write.written?.response ?? (await store.prisma.response.findUniqueOrThrow({ where: { id: write.responseId } }));
      const place = {
        responseId: write.responseId,
        dialogId: write.dialogId,
        previousResponseId: response.previousResponseId,
      };
      const earlier = await writes.earlierContext(place);
      // The input as it was parsed for the write: the stored events are those. An approval request
      // in it is acted on by its stored metadata, found by event id: then the stored events are read.
      const input = contextEvents(store, start.input);
      const own = input.some(isApprovalRequest)
        ? await readResponseModelEvents(write.dialogId, write.responseId, store.database)
        : input;
      return {
        responseId: write.responseId,
        dialogId: write.dialogId,
        previousResponseId: response.previousResponseId,
        createdAt: response.createdAt,
        context: [...earlier, ...own],
        continued: earlier.length,
      };
    },
    foresee: (start) => foreseenTurn(store, writes, start),
    // completeResponse commits the open text with the end (src/history-writes/lifecycle-writes.ts).
    commitsTextAtFinish: true,
    textDelta(responseId, type, delta, onEnded) {
      // The history writes serialise calls per response, so deltas, commits and the completion
      // keep their order without being awaited here.
      for (let at = 0; at < delta.length; at += writes.maxDeltaChars) {
        writes
          .streamText({ responseId, type, delta: delta.slice(at, at + writes.maxDeltaChars) }, undefined, MODEL_TEXT)
          .catch((error: Error) => {
            // Ended by someone else (a cancel through an instance this one did not hear, its Redis
            // gone): the turn stops as a local cancel does.
            if (error instanceof NotInProgressError) return onEnded?.();
            logger.warn(`response ${responseId}: a text delta was refused: ${error.message}`);
          });
      }
    },
    async append({ responseId, dialogId }, events, ownCalls) {
      // Text and reasoning were streamed as in-flight text, which the writes commit (reasoning
      // when the answer starts, the answer together with the step's other events). Reasoning
      // with something to send back upstream is written whole, in place of its streamed text.
      const others = events.filter((event) => !isTypedText(event));
      // The turn is its response's one writer: a step that typed nothing has no open text to commit.
      const noTextTyped = !events.some((event) => event.ai || event.reasoning);
      if (others.length) {
        await writes.appendEvents({ responseId, dialogId: dialogId!, events: others, ownCalls, noTextTyped });
      } else await writes.commitText(responseId);
    },
    async finish(turn, status, usage, error, at, answer) {
      const { responseId, dialogId, previousResponseId } = turn;
      // The turn knows its dialog from its opening write: the end does not look it up.
      const end = { responseId, status, usage, error: error ?? null, at, dialogId: dialogId!, answer };
      await writes.completeResponse(end);
      // Not awaited: the turn is done; the one that continues it reads the whole context if this is not kept yet.
      writes
        .keepTurnContext({ responseId, dialogId: dialogId!, previousResponseId }, turn.context.slice(0, turn.continued))
        .catch((error: Error) => logger.debug(`response ${responseId}: its context was not kept: ${error.message}`));
    },
    eventMetadata: (eventIds) => readMetadata(store, eventIds),
  };
}

/**
 * The context a stored turn will be given, when the response it will continue is certain before
 * its write: the one it names, whose context is kept here, or none (a new dialog, or a branch from
 * a dialog's start). A turn after a dialog's head is not foreseen: the write reads the head under
 * the dialog's lock. Input the write would refuse, or that names approval requests (acted on by
 * their stored metadata), is not foreseen either: the write answers as it does.
 */
function foreseenTurn(store: Store, writes: HistoryWrites, start: TurnStart): ForeseenTurn | null {
  const parent = start.previousResponseId ?? null;
  if (parent && start.fromStart) return null; // refused by the write
  if (!parent && start.dialogId && !start.fromStart) return null; // after the dialog's head
  const earlier = parent ? writes.keptContext(parent) : [];
  if (!earlier) return null;
  let input: StoredEvent[];
  try {
    input = contextEvents(store, start.input);
  } catch {
    return null;
  }
  if (input.some(isApprovalRequest)) return null;
  return { previousResponseId: parent, context: [...earlier, ...input] };
}

/** A turn that keeps nothing (`store: false`): it reads the context it continues from `store`. */
export function unstoredTurns(store: Store): TurnSink {
  // Its usage still goes to the ledger, charged to the caller (docs/usage.md).
  const callers = new Map<string, TurnStart>();
  return {
    async begin(start) {
      const input = contextEvents(store, start.input);
      let previous = start.previousResponseId ?? null;
      if (!previous && start.dialogId) {
        const dialog = await store.prisma.dialog.findUnique({
          where: { id: start.dialogId },
          select: { headId: true },
        });
        if (!dialog) throw NotFoundError.dialog(start.dialogId);
        previous = dialog.headId;
      }
      const earlier = previous ? await readModelContext(previous, store.database) : [];
      const responseId = newResponseId();
      callers.set(responseId, start);
      return {
        responseId,
        dialogId: null,
        previousResponseId: previous,
        createdAt: new Date(),
        context: [...earlier, ...input],
        continued: earlier.length,
      };
    },
    textDelta: () => {},
    append: async () => {},
    async finish({ responseId }, _status, usage) {
      const start = callers.get(responseId);
      callers.delete(responseId);
      if (!start || !usage) return;
      const { tenantId, apiKeyId, model } = start;
      await chargeUnstoredTurn(store, { id: responseId, tenantId, apiKeyId: apiKeyId ?? null, model, usage });
    },
    eventMetadata: (eventIds) => readMetadata(store, eventIds),
  };
}
