// POST /v1/chat/completions: OpenAI's Chat Completions, as a recording door. The request's
// messages are matched to the caller's stored chains (src/responses-api/recorded-turn.ts), the
// turn runs through the same model loop and services as /v1/responses — so watchers see it live —
// and the answer is a `chat.completion` or its chunk stream. `store: false` keeps nothing.
import { storedTurns, unstoredTurns } from "../generation/turn-sink.js";
import { errorBody, json } from "./api-errors.js";
import { chatCompletion, chunkStream } from "./chat-completion-object.js";
import { chatSettings, parseChatBody } from "./chat-completions-request.js";
import { type CreateDeps, parseBody, readBodyText } from "./create-response.js";
import { answerRecordedTurn, recordedTurnRequest } from "./recorded-answer.js";
import { idempotentTurns } from "./idempotent-turns.js";
import { placeTurn, turnMessages } from "./recorded-turn.js";

export async function handleChatCompletions(request: Request, deps: CreateDeps): Promise<Response> {
  const text = await readBodyText(request);
  const body = parseBody(text);
  const parsed = parseChatBody(body);
  // What the answer needs is read out before the first await, and the messages are hashed then
  // (recorded-turn.ts), so that the body — thousands of messages at depth — is not kept alive
  // (and copied by each young GC) while the turn begins; its text is, to read it again if need be.
  const { store, stream, includeUsage, obfuscate } = parsed;
  const model = parsed.body.model;
  const logprobs = parsed.body.logprobs ?? false;
  const settings = chatSettings(parsed.body, deps.generator.models.upstreamOf(model));
  const reread = () => (parseBody(text) as { messages: unknown[] }).messages;
  const matching = store ? { tenantId: deps.scope.tenantId, reread } : null;
  const messages = turnMessages("OPENAI_CHAT", parsed.body.messages, ["messages"], matching);
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
