// POST /v1/responses: check the body and the ids it names (as the caller's tenant), start the
// model loop, and answer with the finished Response object, the IN_PROGRESS one (`background`),
// or the turn's server-sent events (`stream`).
import type { Context as TraceContext } from "@opentelemetry/api";
import { requestTraceContext } from "../tracing.js";
import type { TenantScope } from "../auth/tenant-scope.js";
import type { GenerateRequest, Generator, StartedTurn, TurnOutcome } from "../generation/generate-turn.js";
import { storedTurns, type TurnSink, unstoredTurns } from "../generation/turn-sink.js";
import { ApiError, endedTurnError, errorBody, json } from "./api-errors.js";
import type { CreateDeps } from "./responses-deps.js";
import { InvalidRequest, type ParsedCreate, parseCreateBody } from "./create-request.js";
import { followResponse } from "./background-stream.js";
import { idempotentTurns } from "./idempotent-turns.js";
import { resolveItemReferences } from "./item-references.js";
import { ECHOED_PARAMS_KEY, type ResponseView, toResponseObject } from "./response-object.js";
import { sseBody } from "./sse-body.js";
import { type ResponseEventSink, turnEventStream } from "./stream-events.js";

export type { CreateDeps, ResponsesDeps } from "./responses-deps.js";

/** What starts a turn: the model loop, or the idempotent turns of one request (idempotent-turns.ts). */
export type TurnStarter = Pick<Generator, "start">;

// Bytes that are not UTF-8 are refused, not decoded to U+FFFD and stored as if the client had sent that.
const utf8 = new TextDecoder("utf-8", { fatal: true });

export async function readBody(request: Request) {
  return parseBody(await readBodyText(request));
}

/** The request's body as text (refused unless UTF-8): a door that may read it again keeps this, not the parsed body. */
export async function readBodyText(request: Request): Promise<string> {
  try {
    return utf8.decode(await request.arrayBuffer());
  } catch {
    throw new InvalidRequest("The request body is not valid UTF-8.", null);
  }
}

/** A body's text parsed as JSON (refused when it is not). */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidRequest("The request body is not valid JSON.", null);
  }
}

/** The checked request as the model loop takes it; throws an API error for a bad one. */
export async function toGenerateRequest(
  parsed: ParsedCreate,
  scope: TenantScope,
  keyId: string | null = null,
  traceContext?: TraceContext,
): Promise<GenerateRequest> {
  const { body } = parsed;
  if (body.previous_response_id && parsed.conversation) {
    throw new InvalidRequest("previous_response_id and conversation cannot both be given.", "conversation");
  }
  if (body.previous_response_id) await scope.response(body.previous_response_id, ApiError.previousNotFound);
  if (parsed.conversation) await scope.dialog(parsed.conversation, ApiError.conversationNotFound);
  return {
    tenantId: scope.tenantId,
    apiKeyId: keyId,
    traceContext,
    dialogId: parsed.conversation,
    previousResponseId: body.previous_response_id,
    model: body.model,
    input: parsed.input,
    metadata: { ...body.metadata, [ECHOED_PARAMS_KEY]: parsed.echoed },
    instructions: body.instructions,
    tools: parsed.tools,
    toolChoice: parsed.toolChoice,
    temperature: body.temperature,
    topP: body.top_p,
    maxOutputTokens: body.max_output_tokens,
    mcp: parsed.mcp,
    maxToolCalls: body.max_tool_calls,
    frequencyPenalty: body.frequency_penalty,
    presencePenalty: body.presence_penalty,
    responseFormat: parsed.responseFormat,
    upstream: parsed.upstream,
    truncate: parsed.truncate,
  };
}

export function turnView(
  request: GenerateRequest,
  store: boolean,
  started: StartedTurn,
  outcome?: TurnOutcome,
): ResponseView {
  return {
    id: started.responseId,
    createdAt: started.createdAt,
    completedAt: outcome?.completedAt ?? null,
    status: outcome?.status ?? "IN_PROGRESS",
    model: request.model,
    previousResponseId: started.previousResponseId,
    dialogId: started.dialogId,
    output: outcome?.output ?? [],
    usage: outcome?.usage ?? null,
    error: outcome?.error ?? null,
    metadata: request.metadata,
    store,
  };
}

/** The body checked, its `item_reference` items replaced by the caller's stored items. */
export async function parseWithReferences(raw: unknown, deps: CreateDeps): Promise<ParsedCreate> {
  const body = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  const allowedMcpServers = deps.generator.mcp.allowed;
  if (!body || !Array.isArray(body.input)) return parseCreateBody(raw, allowedMcpServers);
  const input = await resolveItemReferences(deps.store, deps.scope.tenantId, body.input);
  return parseCreateBody({ ...body, input }, allowedMcpServers);
}

export async function handleCreate(request: Request, deps: CreateDeps): Promise<Response> {
  const body = await readBody(request);
  const parsed = await parseWithReferences(body, deps);
  // A retry with the same Idempotency-Key is answered with the first call's turn (idempotent-turns.ts).
  const turns = await idempotentTurns(request, body, deps, parsed.store);
  const generate = await toGenerateRequest(parsed, deps.scope, deps.keyId, requestTraceContext(request));
  if (parsed.background && !parsed.store) {
    throw new InvalidRequest(
      "Background responses must be stored: background requires store to be true.",
      "background",
    );
  }
  if (parsed.background && parsed.upstream.logprobs) {
    // A background turn is read back from what is stored, and logprobs are not kept.
    throw new InvalidRequest(
      "Logprobs are not available for background responses: leave out include 'message.output_text.logprobs' and top_logprobs, or background.",
      parsed.body.include?.includes("message.output_text.logprobs") ? "include" : "top_logprobs",
    );
  }
  const sink = parsed.store ? storedTurns(deps) : unstoredTurns(deps.store);
  if (parsed.stream && parsed.background) {
    // Served like a later GET ?stream=true: numbered so that it can be resumed on any instance.
    const started = await turns.start(generate, sink);
    const shown = { obfuscate: parsed.obfuscate, encryptedReasoning: parsed.upstream.encryptedReasoning === true };
    return followResponse(deps, started.responseId, started.dialogId!, -1, shown);
  }
  if (parsed.stream) return streamTurn(generate, parsed.store, sink, turns, parsed.obfuscate);

  const started = await turns.start(generate, sink);
  if (parsed.background) return json(200, toResponseObject(turnView(generate, parsed.store, started)));
  const outcome = await started.done;
  // The answer says what is stored (a turn whose end the database refused is still in progress there).
  const refused = endedTurnError(outcome, started.responseId);
  if (refused) return json(refused.status, errorBody(refused));
  return json(200, toResponseObject(turnView(generate, parsed.store, started, outcome)));
}

async function streamTurn(
  generate: GenerateRequest,
  store: boolean,
  sink: TurnSink,
  generator: TurnStarter,
  obfuscate: boolean,
) {
  // Errors before the turn is open (bad ids, no provider) are answered as JSON, not as a stream.
  const sse = sseBody();
  const started = await startStreamedTurn(generate, store, sink, generator, sse, obfuscate);
  void started.done.then(() => sse.close());
  return sse.response();
}

/** Starts a turn whose events go to `events` (SSE frames, or WebSocket messages); the closing event is sent before `done` settles. */
export async function startStreamedTurn(
  generate: GenerateRequest,
  store: boolean,
  sink: TurnSink,
  generator: TurnStarter,
  events: ResponseEventSink,
  obfuscate = false,
) {
  const stream = turnEventStream(events, { summary: Boolean(generate.upstream?.reasoningSummary), obfuscate });
  const started = await generator.start(generate, sink, stream);
  stream.begin(toResponseObject(turnView(generate, store, started)));
  const done = started.done.then((outcome) => {
    stream.end(toResponseObject(turnView(generate, store, started, outcome)));
    return outcome;
  });
  return { ...started, done };
}
