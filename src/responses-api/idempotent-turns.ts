// `Idempotency-Key` on the /v1 POSTs that start a turn (/v1/responses, /v1/chat/completions,
// /v1/messages): a retry
// with the same key and the same request is answered with the turn the first call stored — waiting
// for its end if it is still running, on whichever instance — and calls no model; the same key with
// a different request is a 409 naming the key. It is createResponse's idempotencyKey door
// (src/services/idempotency.ts), so keys share one namespace per tenant; what is hashed is the HTTP
// request (its path and body), not the turn it became, which depends on what was stored since.
import { createHash } from "node:crypto";
import stringify from "safe-stable-stringify";
import type { GenerateRequest, StartedTurn, TurnObserver, TurnOutcome } from "../generation/generate-turn.js";
import type { OutputItem } from "../generation/output-items.js";
import { EarlierTurn, type FinalStatus, type TurnSink } from "../generation/turn-sink.js";
import { findIdempotentResult, MAX_IDEMPOTENCY_KEY_CHARS, storedIdempotencyKey } from "../services/idempotency.js";
import type { WriteResult } from "../services/write-result.js";
import { InvalidRequest } from "./invalid-request.js";
import type { ResponseView } from "./response-object.js";
import type { CreateDeps } from "./responses-deps.js";
import { readResponseView } from "./stored-responses.js";
import { untilEnded } from "./turn-end.js";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";

export interface IdempotentTurns {
  /** The earlier turn this request repeats, found before anything is matched or stored; null: none. */
  earlier: WriteResult | null;
  /** Starts the request's turn, or replays the earlier one through `observer` as it is stored. */
  start(generate: GenerateRequest, sink: TurnSink, observer?: TurnObserver): Promise<StartedTurn>;
}

/** The turns of one request: `body` as read, `stored` whether the request keeps its turn. */
export async function idempotentTurns(
  request: Request,
  body: unknown,
  deps: CreateDeps,
  stored: boolean,
): Promise<IdempotentTurns> {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null)
    return { earlier: null, start: (generate, sink, observer) => deps.generator.start(generate, sink, observer) };
  checkKey(key, stored);
  const { pathname } = new URL(request.url);
  const requestHash = createHash("sha256")
    .update(`${pathname}\n${stringify(body) ?? ""}`)
    .digest("hex");
  const storedKey = storedIdempotencyKey(deps.scope.tenantId, key);
  const earlier = await findIdempotentResult(
    deps.store.prisma,
    { given: key, stored: storedKey, name: IDEMPOTENCY_HEADER },
    requestHash,
  );
  return {
    earlier,
    async start(generate, sink, observer) {
      if (earlier) return replay(deps, earlier, observer);
      try {
        return await deps.generator.start({ ...generate, idempotency: { key, requestHash } }, sink, observer);
      } catch (error) {
        // A retry that raced the first call: its write lost the key to the first one's.
        if (error instanceof EarlierTurn) return replay(deps, error.earlier, observer);
        throw error;
      }
    },
  };
}

function checkKey(key: string, stored: boolean) {
  if (!key.length || key.length > MAX_IDEMPOTENCY_KEY_CHARS) {
    throw new InvalidRequest(
      `Invalid '${IDEMPOTENCY_HEADER}' header: it must be 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} characters.`,
      null,
    );
  }
  if (!stored) {
    throw new InvalidRequest(
      `'${IDEMPOTENCY_HEADER}' needs a stored turn to repeat: it cannot be used with store set to false.`,
      "store",
    );
  }
}

/** The earlier turn as a started one: its stored output is followed through `observer` once it has ended. */
async function replay(deps: CreateDeps, earlier: WriteResult, observer: TurnObserver = {}): Promise<StartedTurn> {
  const view = await readResponseView(deps.store, earlier.responseId);
  const ended = view.status === "IN_PROGRESS" ? untilEnded(deps, view.id, earlier.dialogId) : Promise.resolve(view);
  return {
    responseId: view.id,
    dialogId: earlier.dialogId,
    previousResponseId: view.previousResponseId,
    createdAt: view.createdAt,
    context: [],
    continued: 0,
    done: ended.then((end) => {
      end.output.forEach((item, index) => follow(observer, item, index));
      return outcomeOf(end);
    }),
  };
}

function follow(observer: TurnObserver, item: OutputItem, index: number) {
  observer.onItemAdded?.(item, index);
  if (item.type === "message" || item.type === "reasoning") observer.onDelta?.(item, index, item.text);
  if (item.type === "function_call") observer.onDelta?.(item, index, item.arguments);
  observer.onItemDone?.(item, index);
}

function outcomeOf(view: ResponseView): TurnOutcome {
  const usage = view.usage && {
    inputTokens: view.usage.inputTokens,
    outputTokens: view.usage.outputTokens,
    reasoningTokens: view.usage.reasoningTokens,
    totalTokens: view.usage.totalTokens,
    cachedTokens: view.usage.cachedTokens,
  };
  // Still running only when this instance is shutting down: answered as an end not stored.
  const running = view.status === "IN_PROGRESS";
  return {
    status: (running ? "INCOMPLETE" : view.status) as FinalStatus,
    output: view.output,
    usage,
    error: (view.error as TurnOutcome["error"]) ?? null,
    completedAt: view.completedAt ?? new Date(),
    stored: !running,
  };
}
