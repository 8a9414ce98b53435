// How a recording door (Chat Completions, Anthropic Messages) answers the turn it started: streamed
// as its API's events, or whole once the turn has ended, with the dialog and response headers. The
// door gives only its wire format.
import type {
  GenerateRequest,
  Generator,
  StartedTurn,
  TurnObserver,
  TurnOutcome,
} from "../generation/generate-turn.js";
import type { TurnSink } from "../generation/turn-sink.js";
import { requestTraceContext } from "../tracing.js";
import { type ApiError, endedTurnError, json } from "./api-errors.js";
import { type ChainPlace, keptHeaders } from "./recorded-turn.js";
import type { CreateDeps } from "./responses-deps.js";
import { sseBody } from "./sse-body.js";

export interface DoorFormat {
  /** The door's event stream, written into an SSE body; null for a whole answer. */
  stream: ((write: (frame: string) => void) => TurnEvents) | null;
  /** The whole answer's body. */
  whole(turn: StartedTurn, outcome: TurnOutcome): unknown;
  /** A turn that ended without an answer, in the door's error shape. */
  refuse(error: ApiError): Response;
}

interface TurnEvents extends TurnObserver {
  begin(turn: StartedTurn): void;
  end(outcome: TurnOutcome): void;
}

/**
 * The turn a recording door asks for: the request's model settings, at its place in the caller's
 * chains, charged to the caller's key, held to its budget, traced as a child of the request.
 */
export function recordedTurnRequest(
  request: Request,
  deps: Pick<CreateDeps, "scope" | "keyId">,
  settings: Omit<GenerateRequest, "tenantId" | keyof ChainPlace>,
  place: ChainPlace,
): GenerateRequest {
  return {
    ...settings,
    ...place,
    tenantId: deps.scope.tenantId,
    apiKeyId: deps.keyId ?? null,
    traceContext: requestTraceContext(request),
  };
}

export async function answerRecordedTurn(
  generator: Pick<Generator, "start">,
  generate: GenerateRequest,
  sink: TurnSink,
  format: DoorFormat,
): Promise<Response> {
  if (format.stream) {
    const body = sseBody();
    const events = format.stream(body.write);
    // Errors before the turn is open (bad ids, no provider) are answered as JSON, not as a stream.
    const started = await generator.start(generate, sink, events);
    events.begin(started);
    void started.done.then((outcome) => {
      events.end(outcome);
      body.close();
    });
    return body.response(keptHeaders(started));
  }
  const started = await generator.start(generate, sink);
  const outcome = await started.done;
  const refused = endedTurnError(outcome, started.responseId);
  if (refused) return format.refuse(refused);
  const answer = json(200, format.whole(started, outcome));
  for (const [name, value] of Object.entries(keptHeaders(started))) answer.headers.set(name, value);
  return answer;
}
