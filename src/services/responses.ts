// Writing turns. A response and its events are stored in one transaction that also hands out
// the events' dialog-wide sequence numbers: the dialog row is locked, its `lastSeq` bumped by
// the number of events, and the head moved, so concurrent writers to one dialog queue up on
// that row and seqs come out gap-free. Nothing is acknowledged before the commit.
import { prisma } from "../db/prisma.js";
import { ConflictError, type FieldError, NotFoundError, ValidationError } from "../errors.js";
import { Prisma } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { newDialogId, newEventId, newResponseId } from "../ids.js";
import { findToolCallsInContext } from "./context.js";
import { type HistoryEventInput, type NewEvent, parseEventInputs } from "./event-input.js";
import { findIdempotentResult, hashRequest } from "./idempotency.js";
import { type Json, jsonObject, nullableJson } from "./json.js";
import { chainTargetNotFound, dialogExpired, isExpired, responseExpired } from "./retention.js";
import { transactionOptions, type Tx } from "./transaction.js";

export interface UsageInput {
  inputTokens?: number | null;
  outputTokens?: number | null;
  reasoningTokens?: number | null;
  totalTokens?: number | null;
}

export interface CreateResponseInput {
  dialogId?: string | null;
  previousResponseId?: string | null;
  model?: string | null;
  input: HistoryEventInput[];
  output?: HistoryEventInput[] | null;
  status?: ResponseStatus | null;
  usage?: UsageInput | null;
  error?: Json | null;
  metadata?: Json | null;
  idempotencyKey?: string | null;
}

/** What a committed write changed: enough to publish a history delta. */
export interface WriteResult {
  dialogId: string;
  responseId: string;
  /** The dialog's last seq before the write, and after it. */
  previousSeq: number;
  seq: number;
}

export async function createResponse(input: CreateResponseInput): Promise<WriteResult> {
  const events = parseWrite(input);
  const key = input.idempotencyKey;
  const requestHash = key ? hashRequest(input) : null;
  if (key) {
    const earlier = await findIdempotentResult(prisma, key, requestHash!);
    if (earlier) return earlier;
  }
  return prisma.$transaction(async (tx) => {
    if (key) {
      // Retries racing with the same key queue here; the later ones find the first one's response.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
      const earlier = await findIdempotentResult(tx, key, requestHash!);
      if (earlier) return earlier;
    }
    return writeResponse(tx, input, events, requestHash);
  }, transactionOptions);
}

interface ParsedWrite {
  input: NewEvent[];
  output: NewEvent[];
  status: ResponseStatus;
  metadata: Record<string, unknown>;
}

function parseWrite(input: CreateResponseInput): ParsedWrite {
  if (!input.input.length) throw ValidationError.at(["input"], "at least one input event is required");
  const errors: FieldError[] = [];
  const collect = (parse: () => NewEvent[]) => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push(...error.fieldErrors);
      return [];
    }
  };
  const parsed = {
    input: collect(() => parseEventInputs(input.input, ["input"])),
    output: collect(() => parseEventInputs(input.output ?? [], ["output"])),
    status: input.status ?? (input.output ? "COMPLETED" : "IN_PROGRESS"),
    metadata: jsonObject(input.metadata, ["metadata"], errors),
  } satisfies ParsedWrite;
  for (const [field, value] of Object.entries(input.usage ?? {})) {
    if (value != null && (!Number.isInteger(value) || value < 0)) {
      errors.push({ path: ["usage", field], message: "must be a non-negative integer" });
    }
  }
  if (errors.length) throw new ValidationError(errors);
  return parsed;
}

interface Parent {
  id: string;
  dialogId: string;
  depth: number;
}

async function writeResponse(
  tx: Tx,
  request: CreateResponseInput,
  events: ParsedWrite,
  requestHash: string | null,
): Promise<WriteResult> {
  const { dialogId, parent, lastSeq } = await openChain(tx, request);
  const all = [...events.input, ...events.output];
  await checkToolResults(tx, all, events.input.length, parent);

  const responseId = newResponseId();
  const now = new Date();
  const usage = request.usage ?? {};
  await tx.response.create({
    data: {
      id: responseId,
      dialogId,
      previousResponseId: parent?.id ?? null,
      depth: parent ? parent.depth + 1 : 0,
      model: request.model ?? null,
      status: events.status,
      inputTokens: usage.inputTokens ?? null,
      outputTokens: usage.outputTokens ?? null,
      reasoningTokens: usage.reasoningTokens ?? null,
      totalTokens: usage.totalTokens ?? null,
      error: nullableJson(request.error),
      metadata: events.metadata as Prisma.InputJsonObject,
      createdAt: now,
      completedAt: events.status === "IN_PROGRESS" ? null : now,
      idempotencyKey: request.idempotencyKey ?? null,
      requestHash,
    },
  });
  await insertEvents(tx, { dialogId, responseId, afterSeq: lastSeq, now }, events.input, "INPUT");
  await insertEvents(
    tx,
    { dialogId, responseId, afterSeq: lastSeq + events.input.length, now },
    events.output,
    "OUTPUT",
  );
  await tx.dialog.update({ where: { id: dialogId }, data: { lastSeq: lastSeq + all.length, headId: responseId } });
  return { dialogId, responseId, previousSeq: lastSeq, seq: lastSeq + all.length };
}

/** Where a write lands: its dialog, the response it continues, and the dialog's last seq. */
export interface WritePlace {
  dialogId: string;
  parent: Parent | null;
  lastSeq: number;
}

/**
 * Resolves where a write chained by `previousResponseId` or `dialogId` lands and locks its dialog
 * for the rest of the transaction — or, when neither is given, creates a new dialog. A response
 * or dialog past its retention is treated as gone.
 */
export async function openChain(
  tx: Tx,
  request: { dialogId?: string | null; previousResponseId?: string | null },
  now = new Date(),
): Promise<WritePlace> {
  let parent: Parent | null = null;
  if (request.previousResponseId) {
    const found = await tx.response.findUnique({
      where: { id: request.previousResponseId },
      select: { id: true, dialogId: true, depth: true },
    });
    if (!found) throw chainTargetNotFound(request.previousResponseId);
    if (request.dialogId && request.dialogId !== found.dialogId) {
      throw new ConflictError(
        `Response ${found.id} belongs to dialog ${found.dialogId}, not to dialog ${request.dialogId}`,
      );
    }
    parent = found;
  }

  const dialogId = parent?.dialogId ?? request.dialogId ?? newDialogId();
  let lastSeq = 0;
  if (parent || request.dialogId) {
    const chainedTo = parent?.id;
    const dialog = await lockDialog(tx, dialogId, {
      now,
      whenExpired: chainedTo ? () => responseExpired(chainedTo) : undefined,
    });
    lastSeq = dialog.lastSeq;
    if (!parent && dialog.headId) {
      parent = await tx.response.findUniqueOrThrow({
        where: { id: dialog.headId },
        select: { id: true, dialogId: true, depth: true },
      });
    }
  } else {
    await tx.dialog.create({ data: { id: dialogId } });
  }
  return { dialogId, parent, lastSeq };
}

/**
 * Locks the dialog row for the rest of the transaction; seqs and the head change under it.
 * The head's depth is read by a second statement on purpose: in READ COMMITTED a statement that
 * waited for the lock re-reads the locked row but not rows joined to it, so a join here would
 * pair the new head with a stale (invisible) response.
 */
export async function lockDialog(
  tx: Tx,
  dialogId: string,
  { now = new Date(), whenExpired = () => dialogExpired(dialogId) }: { now?: Date; whenExpired?: () => Error } = {},
) {
  const [dialog] = await tx.$queryRaw<{ lastSeq: number; headId: string | null; updatedAt: Date }[]>`
    SELECT "lastSeq", "headId", "updatedAt" FROM "Dialog" WHERE id = ${dialogId} FOR UPDATE`;
  if (!dialog) throw NotFoundError.dialog(dialogId);
  // An expired dialog is gone for writes even before the retention sweeper deletes it.
  if (isExpired(dialog.updatedAt, now)) throw whenExpired();
  return dialog;
}

export interface EventPlace {
  dialogId: string;
  responseId: string;
  afterSeq: number;
  now: Date;
}

export async function insertEvents(tx: Tx, at: EventPlace, events: NewEvent[], phase: "INPUT" | "OUTPUT") {
  if (!events.length) return;
  await tx.event.createMany({ data: eventRows(at, events, phase) });
}

/** The rows for `events`, numbered from `at.afterSeq + 1`: several writes' rows can go in one INSERT. */
export function eventRows(at: EventPlace, events: NewEvent[], phase: "INPUT" | "OUTPUT") {
  return events.map((event, index): Prisma.EventCreateManyInput => ({
    id: newEventId(),
    dialogId: at.dialogId,
    responseId: at.responseId,
    seq: at.afterSeq + index + 1,
    phase,
    type: event.type,
    content: event.content,
    parts: nullableJson(event.parts),
    modelName: event.modelName,
    callId: event.callId,
    toolName: event.toolName,
    args: nullableJson(event.args),
    isError: event.isError,
    metadata: event.metadata as Prisma.InputJsonObject,
    providerFields: nullableJson(event.providerFields),
    createdAt: event.createdAt ?? at.now,
  }));
}

/**
 * A tool result must answer a tool call made earlier in the same write or somewhere in the
 * context it continues; `callIdPathOf` maps an index in `events` to the input field naming the call.
 */
export async function checkToolResults(
  tx: Tx,
  events: NewEvent[],
  inputCount: number,
  parent: { id: string } | null,
  callIdPathOf: (index: number) => string[] = (index) => [
    ...(index < inputCount ? ["input", String(index)] : ["output", String(index - inputCount)]),
    "toolResult",
    "callId",
  ],
) {
  const seenCalls = new Set<string>();
  const unanswered: { index: number; callId: string }[] = [];
  events.forEach((event, index) => {
    if (event.type === "TOOL_CALL" && event.callId) seenCalls.add(event.callId);
    if (event.type === "TOOL_RESULT" && event.callId && !seenCalls.has(event.callId)) {
      unanswered.push({ index, callId: event.callId });
    }
  });
  if (!unanswered.length) return;
  const inContext = parent
    ? await findToolCallsInContext(parent.id, [...new Set(unanswered.map((u) => u.callId))], tx)
    : new Set<string>();
  const errors = unanswered
    .filter(({ callId }) => !inContext.has(callId))
    .map(({ index, callId }) => ({
      path: callIdPathOf(index),
      message: `no tool call with callId ${callId} in the context`,
    }));
  if (errors.length) throw new ValidationError(errors);
}
