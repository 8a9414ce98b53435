// Writing turns. A response and its events are stored in one transaction that also hands out
// the events' dialog-wide sequence numbers: the dialog row is locked, its `lastSeq` bumped by
// the number of events, and the head moved, so concurrent writers to one dialog queue up on
// that row and seqs come out gap-free. Nothing is acknowledged before the commit.
import { database, prisma } from "../db/prisma.js";
import { ConflictError, type FieldError, NotFoundError, ValidationError } from "../errors.js";
import { type Dialog, Prisma, type Response } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { newDialogId, newEventId, newResponseId } from "../ids.js";
import { findToolCallsInContext } from "./context.js";
import { type HistoryEventInput, type NewEvent, parseEventInputs } from "./event-input.js";
import { findIdempotentResult, hashRequest, storedIdempotencyKey } from "./idempotency.js";
import { type Json, jsonObject, nullableJson } from "./json.js";
import { chainTargetNotFound, dialogExpired, isExpired, responseExpired } from "./retention.js";
import type { Tx } from "./transaction.js";
import { insertTurn, isUniqueViolation } from "./write-turn.js";

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
  /** The response and dialog rows as this write committed them (absent when it stored nothing new). */
  written?: { response: Response; dialog: Dialog };
}

/**
 * Stores a turn for `tenantId` (a new dialog is created for that tenant; the ids in `input` must
 * already have been checked to be the tenant's: see src/auth/tenant-scope.ts).
 */
export async function createResponse(input: CreateResponseInput, tenantId: string): Promise<WriteResult> {
  const parsed = parseWrite(input);
  const key = input.idempotencyKey == null ? null : { given: input.idempotencyKey, stored: storedIdempotencyKey(tenantId, input.idempotencyKey) };
  const requestHash = key ? hashRequest(input) : null;
  if (key) {
    const earlier = await findIdempotentResult(prisma, key, requestHash!);
    if (earlier) return earlier;
  }
  try {
    return await storeTurn({ ...input, idempotencyKey: key?.stored }, parsed, requestHash, tenantId);
  } catch (error) {
    // Retries with the same key raced: the statement that lost stored nothing; answer with the winner's.
    if (key && isUniqueViolation(error)) {
      const earlier = await findIdempotentResult(prisma, key, requestHash!);
      if (earlier) return earlier;
    }
    throw error;
  }
}

/** A head that keeps moving under a write that must validate against it is retried this often. */
const HEAD_RACE_RETRIES = 5;

async function storeTurn(
  request: CreateResponseInput,
  parsed: ParsedWrite,
  requestHash: string | null,
  tenantId: string,
): Promise<WriteResult> {
  const parent = request.previousResponseId ? await findParent(request.previousResponseId, request.dialogId) : null;
  const events = [...parsed.input, ...parsed.output];
  const existingDialogId = parent?.dialogId ?? request.dialogId ?? null;
  for (let attempt = 0; ; attempt++) {
    // Tool results are checked against the context they will continue. Chaining to the head,
    // that context is the head's, so the write is stored only if the head has not moved since.
    let checkedHead: string | null | undefined;
    if (needsContextCheck(events)) {
      let contextTip = parent;
      if (!parent && existingDialogId) {
        checkedHead = await readHead(existingDialogId);
        contextTip = checkedHead ? { id: checkedHead, dialogId: existingDialogId, depth: 0 } : null;
      }
      await checkToolResults(prisma, events, parsed.input.length, contextTip);
    }
    const responseId = newResponseId();
    const dialogId = existingDialogId ?? newDialogId();
    const usage = request.usage ?? {};
    const stored = await insertTurn({
      responseId,
      dialog: { id: dialogId, isNew: !existingDialogId, tenantId },
      parent,
      expectedHeadId: checkedHead,
      model: request.model ?? null,
      status: parsed.status,
      usage: {
        inputTokens: usage.inputTokens ?? null,
        outputTokens: usage.outputTokens ?? null,
        reasoningTokens: usage.reasoningTokens ?? null,
        totalTokens: usage.totalTokens ?? null,
      },
      error: request.error ?? null,
      metadata: parsed.metadata,
      idempotencyKey: request.idempotencyKey ?? null,
      requestHash,
      input: parsed.input,
      output: parsed.output,
      now: new Date(),
    });
    if (stored === "not-found") throw NotFoundError.dialog(dialogId);
    if (stored === "expired") throw parent ? responseExpired(parent.id) : dialogExpired(dialogId);
    if (stored === "head-moved") {
      if (attempt < HEAD_RACE_RETRIES) continue;
      throw new ConflictError(`Dialog ${dialogId} kept moving while this write was validated; retry it`);
    }
    const seq = stored.previousSeq + events.length;
    const written = { response: stored.response, dialog: stored.dialog };
    return { dialogId, responseId, previousSeq: stored.previousSeq, seq, status: parsed.status, written };
  }
}

/**
 * The explicit parent. Responses never move between dialogs, so this needs no lock. Chaining by
 * previousResponseId is how most agents write, so this read goes to the driver directly.
 */
async function findParent(previousResponseId: string, dialogId: string | null | undefined) {
  const [parent] = await database.query<{ id: string; dialogId: string; depth: number }>(
    `SELECT id, "dialogId", depth FROM "Response" WHERE id = $1`,
    [previousResponseId],
  );
  if (!parent) throw chainTargetNotFound(previousResponseId);
  if (dialogId && dialogId !== parent.dialogId) {
    throw new ConflictError(`Response ${parent.id} belongs to dialog ${parent.dialogId}, not to dialog ${dialogId}`);
  }
  return parent;
}

async function readHead(dialogId: string) {
  const dialog = await prisma.dialog.findUnique({ where: { id: dialogId }, select: { headId: true } });
  if (!dialog) throw NotFoundError.dialog(dialogId);
  return dialog.headId;
}

const needsContextCheck = (events: NewEvent[]) => events.some((event) => event.type === "TOOL_RESULT");

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
  request: { dialogId?: string | null; previousResponseId?: string | null; tenantId: string },
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
    if (!parent && dialog.headId) parent = { id: dialog.headId, dialogId, depth: dialog.headDepth! };
  } else {
    await tx.dialog.create({ data: { id: dialogId, tenantId: request.tenantId } });
  }
  return { dialogId, parent, lastSeq };
}

/**
 * Locks the dialog row for the rest of the transaction; seqs and the head change under it. The
 * head's depth comes from the dialog row itself (headDepth): in READ COMMITTED a statement that
 * waited for the lock re-reads the locked row but not rows joined to it.
 */
export async function lockDialog(
  tx: Tx,
  dialogId: string,
  { now = new Date(), whenExpired = () => dialogExpired(dialogId) }: { now?: Date; whenExpired?: () => Error } = {},
) {
  const [dialog] = await tx.$queryRaw<
    { lastSeq: number; headId: string | null; headDepth: number | null; updatedAt: Date }[]
  >`SELECT "lastSeq", "headId", "headDepth", "updatedAt" FROM "Dialog" WHERE id = ${dialogId} FOR UPDATE`;
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
  tx: Tx | typeof prisma,
  events: NewEvent[],
  inputCount: number,
  parent: { id: string } | null,
  callIdPathOf: (index: number) => string[] = (index) => [
    ...(index < inputCount ? ["input", String(index)] : ["output", String(index - inputCount)]),
    "toolResult",
    "callId",
  ],
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
      errors.push({ path: callIdPathOf(index), message: `no tool call with callId ${event.callId} in the context` });
    } else event.toolName ??= name;
  }
  if (errors.length) throw new ValidationError(errors);
}
