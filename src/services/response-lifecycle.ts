// Moving an IN_PROGRESS response along as an agent works (seed 004): append the steps it has
// completed, then finish it — completed, failed, or interrupted. Each call is one transaction
// under the dialog's row lock, like createResponse: seqs stay gap-free, and a status is read
// after the lock so two writers can never both see a response as still in progress.
import { config } from "../config.js";
import { prisma } from "../db/prisma.js";
import { ConflictError, type FieldError, NotFoundError, ValidationError } from "../errors.js";
import type { Prisma } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { type HistoryEventInput, type NewEvent, parseEventInputs } from "./event-input.js";
import { type Json, nullableJson } from "./json.js";
import {
  checkToolResults,
  checkUsage,
  insertEvents,
  lockDialog,
  type UsageInput,
  type WriteResult,
} from "./responses.js";
import { countIncrements } from "./event-counts.js";
import { transactionOptions, type Tx } from "./transaction.js";

export interface AppendEventsInput {
  responseId: string;
  events: HistoryEventInput[];
  /** When given, the dialog's last seq must still be this (optimistic concurrency). */
  expectedSeq?: number | null;
}

export async function appendEvents(input: AppendEventsInput): Promise<WriteResult> {
  if (!input.events.length) throw ValidationError.at(["events"], "at least one event is required");
  const events = parseEventInputs(input.events, ["events"]);
  return prisma.$transaction(async (tx) => {
    const { dialogId, lastSeq } = await lockInProgressResponse(tx, input.responseId);
    if (input.expectedSeq != null && input.expectedSeq !== lastSeq) {
      throw new ConflictError(`expectedSeq is ${input.expectedSeq} but the dialog's last seq is ${lastSeq}`);
    }
    // The response's own earlier output is part of its context, so a result may answer a call
    // appended a moment ago.
    await checkToolResults(tx, events, 0, { id: input.responseId }, (index) => [
      "events",
      String(index),
      "toolResult",
      "callId",
    ]);
    return writeEvents(tx, { dialogId, responseId: input.responseId, lastSeq }, events, {});
  }, transactionOptions);
}

const FINAL_STATUSES = ["COMPLETED", "FAILED", "INCOMPLETE", "CANCELLED"] as const;
type FinalStatus = (typeof FINAL_STATUSES)[number];

export interface CompleteResponseInput {
  responseId: string;
  /** Defaults to COMPLETED. */
  status?: ResponseStatus | null;
  usage?: UsageInput | null;
  error?: Json | null;
}

export async function completeResponse(input: CompleteResponseInput): Promise<WriteResult> {
  const status = input.status ?? "COMPLETED";
  const errors: FieldError[] = [];
  if (!isFinal(status)) errors.push({ path: ["status"], message: `must be one of ${FINAL_STATUSES.join(", ")}` });
  checkUsage(input.usage, errors);
  if (errors.length || !isFinal(status)) throw new ValidationError(errors);
  return prisma.$transaction(async (tx) => {
    const { dialogId, lastSeq } = await lockInProgressResponse(tx, input.responseId);
    const usage = input.usage ?? {};
    return writeEvents(tx, { dialogId, responseId: input.responseId, lastSeq }, [], {
      status,
      // Only the counts given are set; absent ones keep what createResponse stored.
      ...Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined)),
      ...(input.error !== undefined && { error: nullableJson(input.error) }),
    });
  }, transactionOptions);
}

/** Seed 004's interrupt behaviours. */
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
export async function interruptResponse(input: InterruptResponseInput): Promise<WriteResult> {
  const partial = input.behavior === "DISCARD" ? [] : [partialAnswer(input)];
  return prisma.$transaction(async (tx) => {
    const { dialogId, lastSeq } = await lockInProgressResponse(tx, input.responseId);
    return writeEvents(tx, { dialogId, responseId: input.responseId, lastSeq }, partial, {
      status: partial.length ? "INCOMPLETE" : "CANCELLED",
    });
  }, transactionOptions);
}

function partialAnswer({ behavior, partialText }: InterruptResponseInput): NewEvent {
  if (partialText == null) {
    throw ValidationError.at(["partialText"], `${behavior} needs the partial text (use DISCARD to keep nothing)`);
  }
  if (Buffer.byteLength(partialText) > config.MAX_EVENT_BYTES) {
    throw ValidationError.at(["partialText"], `longer than MAX_EVENT_BYTES (${config.MAX_EVENT_BYTES} bytes)`);
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

/** Locks the response's dialog, then checks, under the lock, that the response still takes writes. */
async function lockInProgressResponse(tx: Tx, responseId: string) {
  const found = await tx.response.findUnique({ where: { id: responseId }, select: { dialogId: true } });
  if (!found) throw NotFoundError.response(responseId);
  const { lastSeq } = await lockDialog(tx, found.dialogId);
  const response = await tx.response.findUnique({ where: { id: responseId }, select: { status: true } });
  if (!response) throw NotFoundError.response(responseId);
  if (response.status !== "IN_PROGRESS") {
    throw new ConflictError(`Response ${responseId} is ${response.status}; only an IN_PROGRESS response can change`);
  }
  return { dialogId: found.dialogId, lastSeq };
}

/** Appends `events` after `lastSeq`, applies `change` to the response, and describes the write. */
async function writeEvents(
  tx: Tx,
  at: { dialogId: string; responseId: string; lastSeq: number },
  events: NewEvent[],
  change: Prisma.ResponseUpdateInput & { status?: FinalStatus },
): Promise<WriteResult> {
  const now = new Date();
  await insertEvents(tx, { ...at, afterSeq: at.lastSeq, now }, events, "OUTPUT");
  if (events.length) {
    await tx.dialog.update({ where: { id: at.dialogId }, data: { lastSeq: at.lastSeq + events.length } });
  }
  if (change.status) Object.assign(change, { completedAt: now, finishedAtSeq: at.lastSeq + events.length });
  Object.assign(change, countIncrements(events));
  if (Object.keys(change).length) await tx.response.update({ where: { id: at.responseId }, data: change });
  return {
    dialogId: at.dialogId,
    responseId: at.responseId,
    previousSeq: at.lastSeq,
    seq: at.lastSeq + events.length,
    status: change.status ?? "IN_PROGRESS",
  };
}
