// What the recording doors (/v1/chat/completions, /v1/messages) share: a request that carries the
// whole conversation becomes one turn continuing the stored chain its messages begin with
// (src/services/chat-match.ts), its input only the messages after that chain. The header
// `X-Dialogql-Dialog` names the dialog to keep the turn in; answers name the dialog and response
// they kept in `X-Dialogql-Dialog` and `X-Dialogql-Response`.
import type { TenantScope } from "../auth/tenant-scope.js";
import { ConflictError } from "../errors.js";
import { ChatHashChain, type ChatHashedEvent, chatHashSeed } from "../formats/chat-context-hash.js";
import { importEvents, type MessageFormat } from "../formats/index.js";
import type { BegunTurn, StoredTurnsDeps } from "../generation/turn-sink.js";
import {
  firstProbed,
  matchChatContext,
  matchPlainPrefixes,
  plainChatForms,
  plainPrefixHashes,
  type PrefixHashes,
} from "../services/chat-match.js";
import type { HistoryEventInput } from "../vocabulary/events.js";
import { ApiError } from "./api-errors.js";
import { toEventInput } from "./create-request.js";

export const DIALOG_HEADER = "x-dialogql-dialog";
export const RESPONSE_HEADER = "x-dialogql-response";

/** The events a request's messages make, as a turn would store them. */
export function requestEvents(format: MessageFormat, messages: unknown, path: string[]): HistoryEventInput[] {
  return importEvents(format, messages, path).map(({ event }) => toEventInput(event));
}

/**
 * A request's messages as a door places them: read into events up front, or — a Chat Completions
 * request whose messages are all plain text (plainChatForm), as a chat client sends a chat —
 * hashed straight from the messages as sent (no events, no object a message) before the door's
 * first await, and read into events only from where the chain they match ends. Of the messages,
 * only the few a match of the first probe leaves as input are kept across the awaits: a request
 * of thousands of messages dies young instead of being copied by each young GC while it waits,
 * and the rare request matched further back (or not at all) is read again from its text. A
 * plain message is always valid, so nothing is left unchecked.
 */
export type TurnMessages = { events: HistoryEventInput[] } | { plain: PlainChat };

interface PlainChat {
  hashes: PrefixHashes;
  /** The messages from `tailFrom` on. */
  tail: readonly unknown[];
  tailFrom: number;
  /** All the messages, read again from the body's text. */
  reread(): unknown[];
}

/**
 * `messages` of `format` as a door places them (TurnMessages): hashed for `tenantId` when it is
 * given (the turn will be matched), `reread` giving them again. Throws a ValidationError for a bad message.
 */
export function turnMessages(
  format: MessageFormat,
  messages: unknown,
  path: string[],
  matching: { tenantId: string; reread: () => unknown[] } | null,
): TurnMessages {
  const forms = matching && format === "OPENAI_CHAT" && Array.isArray(messages) ? plainChatForms(messages) : null;
  if (!matching || !forms) return { events: requestEvents(format, messages, path) };
  const all = messages as unknown[];
  const hashes = plainPrefixHashes(all, forms, new ChatHashChain(chatHashSeed(matching.tenantId)));
  const tailFrom = firstProbed(hashes);
  return { plain: { hashes, tail: all.slice(tailFrom), tailFrom, reread: matching.reread } };
}

/** The events of the messages from `from` on (a message index of plain messages: one event each). */
function eventsFrom(messages: TurnMessages, from: number): HistoryEventInput[] {
  if ("events" in messages) return from ? messages.events.slice(from) : messages.events;
  const { tail, tailFrom, reread } = messages.plain;
  const plain = from >= tailFrom ? tail.slice(from - tailFrom) : reread().slice(from);
  return requestEvents("OPENAI_CHAT", plain, ["messages"]);
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
  messages: TurnMessages,
  request: Request,
  match: boolean,
): Promise<ChainPlace> {
  return match
    ? placeInChain(deps, deps.scope, messages, request)
    : { dialogId: null, previousResponseId: null, input: eventsFrom(messages, 0) };
}

/** Where the request's turn goes: after the longest stored chain its messages begin with. */
export async function placeInChain(
  deps: StoredTurnsDeps,
  scope: TenantScope,
  messages: TurnMessages,
  request: Request,
): Promise<ChainPlace> {
  const named = request.headers.get(DIALOG_HEADER);
  if (named) {
    await scope.dialog(
      named,
      (id) => new ApiError(404, `Dialog '${id}' not found.`, "invalid_request_error", null, "not_found"),
    );
  }
  const match =
    "events" in messages
      ? await matchChatContext(deps.store, scope.tenantId, messages.events.map(hashedView), named)
      : await matchPlainPrefixes(deps.store, scope.tenantId, messages.plain.hashes, named);
  if (match.previousResponseId) {
    return {
      dialogId: null,
      previousResponseId: match.previousResponseId,
      input: eventsFrom(messages, match.inputFrom),
    };
  }
  if (named) {
    const dialog = await deps.store.prisma.dialog.findUniqueOrThrow({ where: { id: named }, select: { headId: true } });
    // A dialog with history takes only a conversation that continues some chain of it.
    if (dialog.headId) {
      throw new ConflictError(`The messages do not continue any response of dialog ${named} (${DIALOG_HEADER})`);
    }
  }
  return { dialogId: named, previousResponseId: null, input: eventsFrom(messages, 0) };
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
