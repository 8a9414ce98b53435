// POST /v1/chat/completions: OpenAI's Chat Completions, as a recording door. The request's
// messages are matched to the caller's stored chains (src/responses-api/recorded-turn.ts), the
// turn runs through the same model loop and services as /v1/responses — so watchers see it live —
// and the answer is a `chat.completion` or its chunk stream. `store: false` keeps nothing.
import { storedTurns, unstoredTurns } from "../generation/turn-sink.js";
import { errorBody, json } from "./api-errors.js";
import { chatCompletion, chunkStream } from "./chat-completion-object.js";
import { chatSettings, parseChatBody } from "./chat-completions-request.js";
import { type CreateDeps, readBody } from "./create-response.js";
import { answerRecordedTurn, recordedTurnRequest } from "./recorded-answer.js";
import { idempotentTurns } from "./idempotent-turns.js";
import { placeTurn, turnMessages } from "./recorded-turn.js";

export async function handleChatCompletions(request: Request, deps: CreateDeps): Promise<Response> {
  const body = await readBody(request);
  const parsed = parseChatBody(body);
  // What the answer needs is read out before the first await, so that the body is not kept alive
  // while the turn begins; only its messages are, until the turn's input is read from them (a
  // plain chat's, recorded-turn.ts: reading all of them into events would make more to collect).
  const { store, stream, includeUsage, obfuscate } = parsed;
  const model = parsed.body.model;
  const logprobs = parsed.body.logprobs ?? false;
  const settings = chatSettings(parsed.body, deps.generator.models.upstreamOf(model));
  const messages = turnMessages("OPENAI_CHAT", parsed.body.messages, ["messages"]);
  const turns = await idempotentTurns(request, body, deps, store);
  const place = await placeTurn(deps, messages, request, store && !turns.earlier);
  const generate = recordedTurnRequest(request, deps, settings, place);
  const sink = store ? storedTurns(deps) : unstoredTurns(deps.store);
  const chunkOptions = { includeUsage, obfuscate, logprobs };

  return answerRecordedTurn(turns, generate, sink, {
    stream: stream ? (write) => chunkStream(write, model, chunkOptions) : null,
    whole: (started, outcome) => chatCompletion(started, outcome, model, logprobs),
    refuse: (error) => json(error.status, errorBody(error)),
  });
}
