// POST /v1/messages: Anthropic's Messages API, as a recording door beside /v1/chat/completions, so
// `@anthropic-ai/sdk` clients have their conversations kept too. The request's system prompt and
// messages are matched to the caller's stored chains (src/responses-api/recorded-turn.ts); the
// model is whichever provider the model name maps to (the AI SDK converts); the answer and every
// error are in Anthropic's shapes.
import { storedTurns } from "../generation/turn-sink.js";
import { logger } from "../logger.js";
import { requestIdOf } from "../request-id.js";
import { json, toApiError } from "./api-errors.js";
import { anthropicMessage, messageEventStream } from "./anthropic-message-object.js";
import { messagesSettings, parseMessagesBody } from "./anthropic-messages-request.js";
import { type CreateDeps, readBody } from "./create-response.js";
import { answerRecordedTurn, recordedTurnRequest } from "./recorded-answer.js";
import { idempotentTurns } from "./idempotent-turns.js";
import { placeTurn, requestEvents } from "./recorded-turn.js";

/** Every failure in Anthropic's shape (OpenAI's would confuse its SDK). */
export async function handleAnthropicMessages(request: Request, deps: CreateDeps): Promise<Response> {
  try {
    return await handleMessages(request, deps);
  } catch (error) {
    const known = toApiError(error);
    if (known) return anthropicError(known.status, known.message);
    logger.error(`request ${requestIdOf(request)}: POST /v1/messages failed`, error);
    return anthropicError(500, "Internal server error");
  }
}

async function handleMessages(request: Request, deps: CreateDeps): Promise<Response> {
  const raw = await readBody(request);
  const body = parseMessagesBody(raw);
  // What the answer needs is read out first: the answer's callbacks outlive the request, and
  // capturing `body` would keep every message of it alive (and copied by young GCs) for the turn.
  const { model, stream } = body;
  const thinking = body.thinking?.type === "enabled";
  const settings = messagesSettings(body, deps.generator.models.upstreamOf(model));
  const events = requestEvents("ANTHROPIC_MESSAGES", { system: body.system, messages: body.messages }, []);
  const turns = await idempotentTurns(request, raw, deps, true);
  const place = await placeTurn(deps, { events }, request, !turns.earlier);
  const generate = recordedTurnRequest(request, deps, settings, place);
  const sink = storedTurns(deps);

  return answerRecordedTurn(turns, generate, sink, {
    stream: stream ? (write) => messageEventStream(write, model, thinking) : null,
    whole: (started, outcome) => anthropicMessage(started, outcome, model, thinking),
    refuse: (error) => anthropicError(error.status, error.message),
  });
}

const errorTypes: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  409: "invalid_request_error",
  413: "request_too_large",
  429: "rate_limit_error",
};

/** Anthropic's error body: `{"type": "error", "error": {"type", "message"}}`. */
export function anthropicError(status: number, message: string) {
  return json(status, { type: "error", error: { type: errorTypes[status] ?? "api_error", message } });
}
