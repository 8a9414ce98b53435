// What the recording doors (/v1/chat/completions, /v1/messages) share: a request that carries the
// whole conversation becomes one turn continuing the stored chain its messages begin with
// (src/services/chat-match.ts), its input only the messages after that chain. The header
// `X-Dialogql-Dialog` names the dialog to keep the turn in; answers name the dialog and response
// they kept in `X-Dialogql-Dialog` and `X-Dialogql-Response`.
import type { TenantScope } from "../auth/tenant-scope.js";
import { ConflictError } from "../errors.js";
import type { ChatHashedEvent } from "../formats/chat-context-hash.js";
import { importEvents, type MessageFormat } from "../formats/index.js";
import type { BegunTurn, StoredTurnsDeps } from "../generation/turn-sink.js";
import { matchChatContext } from "../services/chat-match.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import { ApiError } from "./api-errors.js";
import { toEventInput } from "./create-request.js";

export const DIALOG_HEADER = "x-dialogql-dialog";
export const RESPONSE_HEADER = "x-dialogql-response";

/** The events a request's messages make, as a turn would store them. */
export function requestEvents(format: MessageFormat, messages: unknown, path: string[]): HistoryEventInput[] {
  return importEvents(format, messages, path).map(({ event }) => toEventInput(event));
}

export interface ChainPlace {
  dialogId: string | null;
  previousResponseId: string | null;
  /** The messages after the matched chain: the new turn's input. */
  input: HistoryEventInput[];
}

/**
 * Where the request's turn goes (`match`: after the chain its messages begin with); a turn that
 * keeps nothing, or a retry the first call's turn answers, is matched to nothing.
 */
export async function placeTurn(
  deps: StoredTurnsDeps & { scope: TenantScope },
  events: HistoryEventInput[],
  request: Request,
  match: boolean,
): Promise<ChainPlace> {
  return match
    ? placeInChain(deps, deps.scope, events, request)
    : { dialogId: null, previousResponseId: null, input: events };
}

/** Where the request's turn goes: after the longest stored chain its messages begin with. */
export async function placeInChain(
  deps: StoredTurnsDeps,
  scope: TenantScope,
  events: HistoryEventInput[],
  request: Request,
): Promise<ChainPlace> {
  const named = request.headers.get(DIALOG_HEADER);
  if (named) {
    await scope.dialog(
      named,
      (id) => new ApiError(404, `Dialog '${id}' not found.`, "invalid_request_error", null, "not_found"),
    );
  }
  const match = await matchChatContext(deps.store, scope.tenantId, events.map(hashedView), named);
  if (match.previousResponseId) {
    return { dialogId: null, previousResponseId: match.previousResponseId, input: events.slice(match.inputFrom) };
  }
  if (named) {
    const dialog = await deps.store.prisma.dialog.findUniqueOrThrow({ where: { id: named }, select: { headId: true } });
    // A dialog with history takes only a conversation that continues some chain of it.
    if (dialog.headId) {
      throw new ConflictError(`The messages do not continue any response of dialog ${named} (${DIALOG_HEADER})`);
    }
  }
  return { dialogId: named, previousResponseId: null, input: events };
}

/** The headers naming where a turn is kept (none for a turn that keeps nothing). */
export const keptHeaders = (turn: BegunTurn): Record<string, string> =>
  turn.dialogId ? { [DIALOG_HEADER]: turn.dialogId, [RESPONSE_HEADER]: turn.responseId } : {};

/** The columns the chat hash reads, from a write input (object literals of one shape: a request maps thousands). */
export function hashedView(input: HistoryEventInput): ChatHashedEvent {
  const message = input.human ?? input.system ?? input.ai;
  if (message) {
    const type = input.human ? "HUMAN" : input.system ? "SYSTEM" : "AI";
    const { content = null, parts } = message;
    return { type, content, parts, callId: null, toolName: null, args: null, isError: null };
  }
  if (input.toolCall) {
    const { callId = null, toolName = null, args } = input.toolCall;
    return { type: "TOOL_CALL", content: null, parts: null, callId, toolName, args: args ?? {}, isError: null };
  }
  if (input.toolResult) {
    const { callId = null, content = null, isError } = input.toolResult;
    return { type: "TOOL_RESULT", content, parts: null, callId, toolName: null, args: null, isError: isError ?? false };
  }
  return { type: "REASONING", content: null, parts: null, callId: null, toolName: null, args: null, isError: null };
}
