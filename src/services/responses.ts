// Writing turns. A response and its events are stored in one transaction that also hands out
// the events' dialog-wide sequence numbers: the dialog row is locked, its `lastSeq` bumped by
// the number of events, and the head moved, so concurrent writers to one dialog queue up on
// that row and seqs come out gap-free. Nothing is acknowledged before the commit.
import { createHash } from "node:crypto";
import stringify from "safe-stable-stringify";
import { prisma } from "../db/prisma.js";
import { ConflictError, type FieldError, NotFoundError, ValidationError } from "../errors.js";
import { Prisma } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { newDialogId, newEventId, newResponseId } from "../ids.js";
import { findToolCallsInContext } from "./context.js";
import { type HistoryEventInput, type NewEvent, parseEventInputs } from "./event-input.js";
import { type Json, jsonObject, nullableJson } from "./json.js";
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
  /** The dialog's last seq before the write, and after it (equal when no event was written). */
  previousSeq: number;
  seq: number;
  /** The response's status once the write committed. */
  status: ResponseStatus;
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
  checkUsage(input.usage, errors);
  if (errors.length) throw new ValidationError(errors);
  return parsed;
}

export function checkUsage(usage: UsageInput | null | undefined, errors: FieldError[]) {
  for (const [field, value] of Object.entries(usage ?? {})) {
    if (value != null && (!Number.isInteger(value) || value < 0)) {
      errors.push({ path: ["usage", field], message: "must be a non-negative integer" });
    }
  }
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
  let parent: Parent | null = null;
  if (request.previousResponseId) {
    parent = await tx.response.findUnique({
      where: { id: request.previousResponseId },
      select: { id: true, dialogId: true, depth: true },
    });
    if (!parent) throw NotFoundError.response(request.previousResponseId);
    if (request.dialogId && request.dialogId !== parent.dialogId) {
      throw new ConflictError(
        `Response ${parent.id} belongs to dialog ${parent.dialogId}, not to dialog ${request.dialogId}`,
      );
    }
  }

  const dialogId = parent?.dialogId ?? request.dialogId ?? newDialogId();
  let lastSeq = 0;
  if (parent || request.dialogId) {
    const dialog = await lockDialog(tx, dialogId);
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
  return { dialogId, responseId, previousSeq: lastSeq, seq: lastSeq + all.length, status: events.status };
}

/**
 * Locks the dialog row for the rest of the transaction; seqs and the head change under it.
 * The head's depth is read by a second statement on purpose: in READ COMMITTED a statement that
 * waited for the lock re-reads the locked row but not rows joined to it, so a join here would
 * pair the new head with a stale (invisible) response.
 */
export async function lockDialog(tx: Tx, dialogId: string) {
  const [dialog] = await tx.$queryRaw<{ lastSeq: number; headId: string | null }[]>`
    SELECT "lastSeq", "headId" FROM "Dialog" WHERE id = ${dialogId} FOR UPDATE`;
  if (!dialog) throw NotFoundError.dialog(dialogId);
  return dialog;
}

export async function insertEvents(
  tx: Tx,
  at: { dialogId: string; responseId: string; afterSeq: number; now: Date },
  events: NewEvent[],
  phase: "INPUT" | "OUTPUT",
) {
  if (!events.length) return;
  await tx.event.createMany({
    data: events.map((event, index) => ({
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
      createdAt: event.createdAt ?? at.now,
    })),
  });
}

/**
 * A tool result must answer a tool call made earlier in the same write or somewhere in the
 * context it continues. A result written without a tool name takes the name of its call.
 * `pathOf` maps an index in `events` back to its input path for error messages.
 */
export async function checkToolResults(
  tx: Tx,
  events: NewEvent[],
  inputCount: number,
  parent: { id: string } | null,
  pathOf: (index: number) => string[] = (index) =>
    index < inputCount ? ["input", String(index)] : ["output", String(index - inputCount)],
) {
  const callsInWrite = new Map<string, string>();
  const unanswered: { index: number; event: NewEvent }[] = [];
  events.forEach((event, index) => {
    if (event.type === "TOOL_CALL" && event.callId) callsInWrite.set(event.callId, event.toolName ?? "");
    if (event.type !== "TOOL_RESULT" || !event.callId) return;
    const name = callsInWrite.get(event.callId);
    if (name === undefined) unanswered.push({ index, event });
    else event.toolName ??= name;
  });
  if (!unanswered.length) return;
  const callIds = [...new Set(unanswered.map(({ event }) => event.callId!))];
  const callsInContext = parent ? await findToolCallsInContext(parent.id, callIds, tx) : new Map<string, string>();
  const errors: FieldError[] = [];
  for (const { index, event } of unanswered) {
    const name = callsInContext.get(event.callId!);
    if (name === undefined) {
      errors.push({
        path: [...pathOf(index), "toolResult", "callId"],
        message: `no tool call with callId ${event.callId} in the context`,
      });
    } else event.toolName ??= name;
  }
  if (errors.length) throw new ValidationError(errors);
}

function hashRequest(input: CreateResponseInput) {
  const { idempotencyKey: _key, ...request } = input;
  return createHash("sha256")
    .update(stringify(request) ?? "")
    .digest("hex");
}

async function findIdempotentResult(db: Tx, key: string, requestHash: string): Promise<WriteResult | null> {
  const earlier = await db.response.findUnique({
    where: { idempotencyKey: key },
    select: {
      id: true,
      dialogId: true,
      status: true,
      requestHash: true,
      events: { select: { seq: true }, orderBy: { seq: "asc" } },
    },
  });
  if (!earlier) return null;
  if (earlier.requestHash !== requestHash) {
    throw new ConflictError(`idempotencyKey ${key} was already used for a different request`);
  }
  // The first write's events are one contiguous run of seqs; events appended later may follow
  // other responses' events, and a delta must never claim a range it does not wholly cover.
  const seqs = earlier.events.map((e) => e.seq);
  const first = seqs[0] ?? 0;
  let last = first;
  while (seqs[last - first + 1] === last + 1) last++;
  return {
    dialogId: earlier.dialogId,
    responseId: earlier.id,
    previousSeq: Math.max(first - 1, 0),
    seq: last,
    status: earlier.status,
  };
}
