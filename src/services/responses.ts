// createResponse: a turn checked here and stored by the store (src/store/turns.ts), which hands
// out its events' seqs under the dialog's row lock and moves the head, so concurrent writers to
// one dialog queue up and seqs come out gap-free. Nothing is acknowledged before the commit.
import { ConflictError, type FieldError, ValidationError } from "../errors.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { newDialogId, newResponseId } from "../ids.js";
import type { SqlRunner } from "../store/sql.js";
import type { Store, WriteLimits } from "../store/store.js";
import { writeTurn } from "../store/turns.js";
import { isUniqueViolation } from "../store/write-turn.js";
import { findToolCallsInContext } from "./context.js";
import { parseEventInputs } from "./event-input.js";
import type { NewEvent } from "../vocabulary/events.js";
import { findIdempotentResult, hashRequest, storedIdempotencyKey } from "./idempotency.js";
import { jsonObject } from "./json.js";
import { chainTargetNotFound } from "./retention.js";
import type { CreateResponseInput, UsageInput, WriteResult } from "./write-result.js";

export type { CreateResponseInput, UsageInput, WriteResult } from "./write-result.js";

/**
 * Stores a turn for `tenantId` (a new dialog is created for that tenant; the ids in `input` must
 * already have been checked to be the tenant's: see src/auth/tenant-scope.ts). Its usage is
 * charged to `apiKeyId` (docs/usage.md).
 */
export async function createResponse(
  store: Store,
  input: CreateResponseInput,
  tenantId: string,
  apiKeyId: string | null = null,
): Promise<WriteResult> {
  if (input.fromStart && input.previousResponseId)
    throw new ValidationError([
      {
        path: ["input", "fromStart"],
        message: "fromStart begins at the dialog's start: give it or previousResponseId",
      },
    ]);
  const parsed = parseWrite(store.writeLimits, input);
  const key =
    input.idempotencyKey == null
      ? null
      : { given: input.idempotencyKey, stored: storedIdempotencyKey(tenantId, input.idempotencyKey) };
  const requestHash = key ? hashRequest(input) : null;
  if (key) {
    const earlier = await findIdempotentResult(store.prisma, key, requestHash!);
    if (earlier) return earlier;
  }
  try {
    const caller = { tenantId, apiKeyId };
    return await storeTurn(store, { ...input, idempotencyKey: key?.stored }, parsed, requestHash, caller);
  } catch (error) {
    // Retries with the same key raced: the statement that lost stored nothing; answer with the winner's.
    if (key && isUniqueViolation(error)) {
      const earlier = await findIdempotentResult(store.prisma, key, requestHash!);
      if (earlier) return earlier;
    }
    throw error;
  }
}

async function storeTurn(
  store: Store,
  request: CreateResponseInput,
  parsed: ParsedWrite,
  requestHash: string | null,
  { tenantId, apiKeyId }: { tenantId: string; apiKeyId: string | null },
): Promise<WriteResult> {
  const parent = request.previousResponseId
    ? await findParent(store, request.previousResponseId, request.dialogId)
    : null;
  const events = [...parsed.input, ...parsed.output];
  const existingDialogId = parent?.dialogId ?? request.dialogId ?? null;
  const dialogId = existingDialogId ?? newDialogId();
  const usage = request.usage ?? {};
  const underLock = needsContextCheck(events);
  // Results that answer calls of this same write are named from them here, with no query.
  if (!underLock) await checkToolResults(store.database, events, parsed.input.length, null);
  const stored = await writeTurn(store, {
    turn: {
      id: newResponseId(),
      model: request.model ?? null,
      status: parsed.status,
      usage: {
        inputTokens: usage.inputTokens ?? null,
        outputTokens: usage.outputTokens ?? null,
        reasoningTokens: usage.reasoningTokens ?? null,
        totalTokens: usage.totalTokens ?? null,
        cachedTokens: usage.cachedTokens ?? null,
      },
      apiKeyId,
      error: request.error ?? null,
      metadata: parsed.metadata,
      idempotencyKey: request.idempotencyKey ?? null,
      requestHash,
      input: parsed.input,
      output: parsed.output,
    },
    dialog: { id: dialogId, isNew: !existingDialogId, tenantId },
    parent,
    fromStart: Boolean(request.fromStart) && !parent,
    // Tool results are checked against the context they continue, under the dialog's lock, so a
    // writer that queued behind others sees their turns: it is never told to retry.
    checkUnderLock: underLock
      ? (session, tip) => checkToolResults(session, events, parsed.input.length, tip)
      : undefined,
    now: new Date(),
  });
  const seq = stored.previousSeq + events.length;
  const written = { response: stored.response, dialog: stored.dialog };
  return {
    dialogId,
    responseId: stored.response.id,
    previousSeq: stored.previousSeq,
    seq,
    status: parsed.status,
    written,
    ...(stored.events && { delta: { events: stored.events, response: stored.response } }),
  };
}

/**
 * The explicit parent. Responses never move between dialogs, so this needs no lock. Chaining by
 * previousResponseId is how most agents write, so this read goes to the driver directly.
 */
export async function findParent(store: Store, previousResponseId: string, dialogId: string | null | undefined) {
  const [parent] = await store.database.query<{ id: string; dialogId: string; depth: number }>(
    `SELECT id, "dialogId", depth FROM "Response" WHERE id = $1`,
    [previousResponseId],
  );
  if (!parent) throw chainTargetNotFound(previousResponseId, store.retentionMs);
  if (dialogId && dialogId !== parent.dialogId) {
    throw new ConflictError(`Response ${parent.id} belongs to dialog ${parent.dialogId}, not to dialog ${dialogId}`);
  }
  return parent;
}

/** Whether a tool result answers a call not made earlier in this write (so only the context can have it). */
function needsContextCheck(events: NewEvent[]) {
  const calls = new Set<string | null>();
  for (const event of events) {
    if (event.type === "TOOL_CALL") calls.add(event.callId);
    if (event.type === "TOOL_RESULT" && !calls.has(event.callId)) return true;
  }
  return false;
}

interface ParsedWrite {
  input: NewEvent[];
  output: NewEvent[];
  status: ResponseStatus;
  metadata: Record<string, unknown>;
}

function parseWrite(limits: WriteLimits, input: CreateResponseInput): ParsedWrite {
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
    input: collect(() => parseEventInputs(limits, input.input, ["input"])),
    output: collect(() => parseEventInputs(limits, input.output ?? [], ["output"])),
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
  // Cached tokens are the part of the input read from the provider's cache (as OpenAI counts them).
  if (usage?.cachedTokens != null && usage.inputTokens != null && usage.cachedTokens > usage.inputTokens) {
    errors.push({ path: ["usage", "cachedTokens"], message: "cannot exceed inputTokens" });
  }
}

/**
 * A tool result must answer a tool call made earlier in the same write or somewhere in the
 * context it continues; `callIdPathOf` maps an index in `events` to the input field naming the call.
 */
export async function checkToolResults(
  db: SqlRunner,
  events: NewEvent[],
  inputCount: number,
  parent: { id: string } | null,
  callIdPathOf: (index: number) => string[] = (index) => [
    ...(index < inputCount ? ["input", String(index)] : ["output", String(index - inputCount)]),
    "toolResult",
    "callId",
  ],
  /** Calls known to be in the context already (AppendEventsInput.ownCalls): not looked up. */
  known?: ReadonlyMap<string, string>,
) {
  const callsInWrite = new Map<string, string>(known);
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
  const callsInContext = parent ? await findToolCallsInContext(parent.id, callIds, db) : new Map<string, string>();
  const errors: FieldError[] = [];
  for (const { index, event } of unanswered) {
    const name = callsInContext.get(event.callId!);
    if (name === undefined) {
      errors.push({ path: callIdPathOf(index), message: `no tool call with callId ${event.callId} in the context` });
    } else event.toolName ??= name;
  }
  if (errors.length) throw new ValidationError(errors);
}
