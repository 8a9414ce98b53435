// Moving an IN_PROGRESS response along as an agent works: append the steps it has
// completed, then finish it — completed, failed, or interrupted. Each call is one write through
// the store's primitive (src/store/dialog-write.ts), under the dialog's row lock like
// createResponse: seqs stay gap-free, and a status is read under the lock so two writers can
// never both see a response as still in progress.
import { ConflictError, type FieldError, NotFoundError, NotInProgressError, ValidationError } from "../errors.js";
import { Prisma } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import type { DialogWrite, ResponseChange } from "../store/dialog-write.js";
import { writeDialog } from "../store/locked-dialog.js";
import { run } from "../store/sql.js";
import type { Store, WriteLimits } from "../store/store.js";
import { parseEventInputs } from "./event-input.js";
import type { HistoryEventInput, NewEvent } from "../vocabulary/events.js";
import type { Json } from "../vocabulary/json.js";
import { checkToolResults, checkUsage } from "./responses.js";
import type { UsageInput, WriteResult } from "./write-result.js";

export interface AppendEventsInput {
  responseId: string;
  events: HistoryEventInput[];
  /** When given, the dialog's last seq must still be this (optimistic concurrency). */
  expectedSeq?: number | null;
  /**
   * Tool calls (call id → tool name) that earlier committed writes of this response stored, as a
   * generated turn knows the calls it wrote: a result answering one is not looked up in the
   * context. Not part of the GraphQL input: only the model loop, which wrote them, gives it.
   */
  ownCalls?: ReadonlyMap<string, string>;
  /** The response's dialog, when the caller knows it (see writeToInProgress); not part of the GraphQL input either. */
  dialogId?: string;
  /**
   * The caller is the response's one writer and typed no text into it since its last write, as the
   * model loop knows: no open text is looked for (src/history-writes/lifecycle-writes.ts). Not part
   * of the GraphQL input either.
   */
  noTextTyped?: boolean;
}

/**
 * `endsText`: the response's open text ends with this write (its event is among `events`, or it
 * is dropped), so its checkpoint is erased in the same transaction. `dialogId`: the response's
 * dialog, when the caller knows it (see writeToInProgress).
 */
export async function appendEvents(
  store: Store,
  input: AppendEventsInput,
  { endsText = false, dialogId = input.dialogId }: { endsText?: boolean; dialogId?: string } = {},
): Promise<WriteResult> {
  if (!input.events.length) throw ValidationError.at(["events"], "at least one event is required");
  const events = parseEventInputs(store.writeLimits, input.events, ["events"]);
  return writeToInProgress(
    store,
    input.responseId,
    async (write) => {
      if (input.expectedSeq != null && input.expectedSeq !== write.seq) {
        throw new ConflictError(`expectedSeq is ${input.expectedSeq} but the dialog's last seq is ${write.seq}`);
      }
      // The response's own earlier output is part of its context, so a result may answer a call
      // appended a moment ago.
      await checkToolResults(
        write.session,
        events,
        0,
        { id: input.responseId },
        (index) => ["events", String(index), "toolResult", "callId"],
        input.ownCalls,
      );
      await write.appendEvents(input.responseId, events, "OUTPUT", { endsText });
      return "IN_PROGRESS";
    },
    undefined,
    { dialogId },
  );
}

const FINAL_STATUSES = ["COMPLETED", "FAILED", "INCOMPLETE", "CANCELLED"] as const;
type FinalStatus = (typeof FINAL_STATUSES)[number];

export interface CompleteResponseInput {
  responseId: string;
  /** Defaults to COMPLETED. */
  status?: ResponseStatus | null;
  usage?: UsageInput | null;
  error?: Json | null;
  /** When the response ended, stamped as its completedAt (default: the write's own time). */
  at?: Date;
  /** The response's dialog, when the caller knows it (see writeToInProgress). */
  dialogId?: string;
  /**
   * The answer its one writer typed into it (the model loop's last step), committed with the end
   * in place of its open text (src/history-writes/lifecycle-writes.ts). Not part of the GraphQL input.
   */
  answer?: HistoryEventInput | null;
}

/**
 * `endsWith`: output events appended in the same write, before the final status (the open text
 * the end commits: src/history-writes/lifecycle-writes.ts); `endsText` erases its checkpoint.
 */
export async function completeResponse(
  store: Store,
  input: CompleteResponseInput,
  { endsWith = [], endsText = false }: { endsWith?: HistoryEventInput[]; endsText?: boolean } = {},
): Promise<WriteResult> {
  const status = input.status ?? "COMPLETED";
  const errors: FieldError[] = [];
  if (!isFinal(status)) errors.push({ path: ["status"], message: `must be one of ${FINAL_STATUSES.join(", ")}` });
  checkUsage(input.usage, errors);
  if (errors.length || !isFinal(status)) throw new ValidationError(errors);
  const events = parseEventInputs(store.writeLimits, endsWith, ["events"]);
  return writeToInProgress(
    store,
    input.responseId,
    async (write) => {
      await write.appendEvents(input.responseId, events, "OUTPUT", { endsText });
      // Only the counts given are set; absent ones keep what createResponse stored.
      const change: ResponseChange = { status, usage: input.usage ?? {}, error: input.error };
      await write.changeResponse(input.responseId, change);
      return status;
    },
    input.at,
    { ends: true, dialogId: input.dialogId },
  );
}

/** What an interrupted response keeps of the answer it was writing. */
export type InterruptBehavior = "SAVE_PARTIAL" | "SAVE_MARKED" | "DISCARD";

export interface InterruptResponseInput {
  responseId: string;
  behavior: InterruptBehavior;
  /** The assistant text produced before the interrupt; required unless behavior is DISCARD. */
  partialText?: string | null;
}

/**
 * SAVE_PARTIAL keeps the partial text as a plain AI message, SAVE_MARKED keeps it with
 * `metadata.interrupted = true`, DISCARD keeps nothing. A response that kept an answer, however
 * short, ends INCOMPLETE; one that kept nothing ends CANCELLED.
 */
export async function interruptResponse(store: Store, input: InterruptResponseInput): Promise<WriteResult> {
  const partial = input.behavior === "DISCARD" ? [] : [partialAnswer(store.writeLimits, input)];
  return writeToInProgress(store, input.responseId, async (write) => {
    const status = partial.length ? "INCOMPLETE" : "CANCELLED";
    await write.appendEvents(input.responseId, partial);
    await write.changeResponse(input.responseId, { status });
    return status;
  });
}

/**
 * The Responses API's cancel: the answer typed so far, when there is one, is kept as a plain AI
 * message (as SAVE_PARTIAL keeps it), and the response ends CANCELLED either way.
 */
export async function cancelResponse(
  store: Store,
  input: { responseId: string; partialText: string | null },
): Promise<WriteResult> {
  const partial = input.partialText ? [partialAnswer(store.writeLimits, { ...input, behavior: "SAVE_PARTIAL" })] : [];
  return writeToInProgress(store, input.responseId, async (write) => {
    await write.appendEvents(input.responseId, partial);
    await write.changeResponse(input.responseId, { status: "CANCELLED" });
    return "CANCELLED";
  });
}

function partialAnswer(limits: WriteLimits, { behavior, partialText }: InterruptResponseInput): NewEvent {
  if (partialText == null) {
    throw ValidationError.at(["partialText"], `${behavior} needs the partial text (use DISCARD to keep nothing)`);
  }
  if (Buffer.byteLength(partialText) > limits.eventBytes) {
    throw ValidationError.at(["partialText"], `longer than MAX_EVENT_BYTES (${limits.eventBytes} bytes)`);
  }
  return {
    type: "AI",
    content: partialText,
    metadata: behavior === "SAVE_MARKED" ? { interrupted: true } : {},
    parts: null,
    modelName: null,
    callId: null,
    toolName: null,
    args: null,
    isError: null,
    createdAt: null,
  };
}

function isFinal(status: ResponseStatus): status is FinalStatus {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

/**
 * Runs `work` on the response's dialog, locked, once the response is known (under the lock) to
 * still take writes; `work` answers the response's status after it. A caller that knows the
 * response's dialog (a generated turn knows it from its opening write, an open text from its
 * row) passes it as `dialogId`, saving the lookup; it is not trusted: the response is read under
 * that dialog's lock and must belong to it, or the write is NOT_FOUND.
 */
async function writeToInProgress(
  store: Store,
  responseId: string,
  work: (write: DialogWrite) => Promise<ResponseStatus>,
  now?: Date,
  { ends = false, dialogId: known }: { ends?: boolean; dialogId?: string } = {},
): Promise<WriteResult> {
  // Responses never move between dialogs, so finding the dialog needs no lock.
  const dialogId = known ?? (await findDialogOf(store, responseId));
  const outcome = await writeDialog(
    store,
    {
      id: dialogId,
      whenMissing: () => NotFoundError.response(responseId),
      withResponse: { id: responseId, forEnd: ends },
    },
    async (write) => {
      const response = await write.readResponse(responseId, { forEnd: ends });
      if (!response) throw NotFoundError.response(responseId);
      if (response.status !== "IN_PROGRESS") {
        throw new NotInProgressError(responseId, response.status, "can change");
      }
      return work(write);
    },
    now,
  );
  return {
    dialogId,
    responseId,
    previousSeq: outcome.previousSeq,
    seq: outcome.seq,
    status: outcome.value,
    ...(outcome.delta?.response.id === responseId && { delta: outcome.delta }),
  };
}

async function findDialogOf(store: Store, responseId: string) {
  const [found] = await run<{ dialogId: string }>(
    Prisma.sql`SELECT "dialogId" FROM "Response" WHERE id = ${responseId}`,
    store.database,
  );
  if (!found) throw NotFoundError.response(responseId);
  return found.dialogId;
}
