// OpenTelemetry traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md, "Traces"): a
// span per HTTP request, continuing the caller's `traceparent`; under it a span per generated turn
// (`invoke_agent`), and under that one span per model call (`chat <model>`) and per MCP tool call
// (`execute_tool <tool>`), named and described by the GenAI semantic conventions
// (`gen_ai.conversation.id` is the dialog). Spans go to an OTLP/HTTP receiver as JSON through the official SDK's exporter. Nothing
// is registered globally: each app has its own provider, and contexts are passed explicitly (the
// request's context travels with the generate request), so tracing costs nothing when it is off.
// Prompt and answer text stay out of spans unless OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT
// asks for them.
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";

export interface TracingSettings {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the receiver's base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: put prompts and answers in model-call spans. */
  captureContent: boolean;
  /** OTEL_SERVICE_NAME. */
  serviceName: string;
  /** How long spans wait to be sent in a batch (OTEL_BSP_SCHEDULE_DELAY). */
  scheduledDelayMs: number;
}

/** How a model call, or a whole turn, ended. */
export interface ModelOutcome {
  /** The response's final status (on the turn's span). */
  status?: string;
  inputTokens?: number | null;
  outputTokens?: number | null;
  finishReason?: string | null;
  error?: string | null;
  output?: string | null;
}

export interface TracedSpan<Outcome> {
  end(outcome: Outcome): void;
}

export interface ToolCallStart {
  name: string;
  callId: string;
  serverLabel: string;
  serverUrl: string;
  /** The arguments as the model wrote them (put in the span only when content is captured). */
  arguments: string;
}

export interface ToolOutcome {
  /** The tool's output, or its error's text. */
  output: string;
  /** The error's type (OpenAI's McpToolCallError type) when the call failed. */
  errorType: string | null;
}

/** A generated turn's span: its model calls and tool calls are its children. */
export interface TurnTrace extends TracedSpan<ModelOutcome> {
  /** One call of the model (a step of the turn); `input` is the context sent to it. */
  modelCall(input: () => unknown): TracedSpan<ModelOutcome>;
  /** One call of an MCP tool. */
  toolCall(call: ToolCallStart): TracedSpan<ToolOutcome>;
}

export interface Tracing {
  readonly captureContent: boolean;
  /** A span for one HTTP request, continuing the `traceparent` in `headers`; its context is the parent of turns. */
  startRequest(name: string, headers: Headers, attributes: Attributes): { context: Context; end(status: number): void };
  /** A span for one generated turn, a child of `parent` (a request's context) when given. */
  startTurn(parent: Context | null | undefined, turn: TurnStart): TurnTrace;
  /** Sends what is pending. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface TurnStart {
  model: string;
  provider: string;
  /** The dialog (null for a turn that stores nothing). */
  conversationId: string | null;
  responseId: string;
}

const propagator = new W3CTraceContextPropagator();
const headerGetter = {
  keys: (headers: Headers) => [...headers.keys()],
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
};

export function createTracing(settings: TracingSettings): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/$/, "")}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: settings.scheduledDelayMs })],
  });
  const tracer = provider.getTracer("dialogql");
  return {
    captureContent: settings.captureContent,
    startRequest(name, headers, attributes) {
      const parent = propagator.extract(ROOT_CONTEXT, headers, headerGetter);
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
      return {
        context: trace.setSpan(parent, span),
        end(status) {
          span.setAttribute("http.response.status_code", status);
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    startTurn(parent, turn) {
      const common = {
        "gen_ai.provider.name": turn.provider,
        "gen_ai.request.model": turn.model,
        "gen_ai.response.id": turn.responseId,
        ...(turn.conversationId && { "gen_ai.conversation.id": turn.conversationId }),
      };
      const span = tracer.startSpan(
        "invoke_agent",
        { kind: SpanKind.INTERNAL, attributes: { "gen_ai.operation.name": "invoke_agent", ...common } },
        parent ?? ROOT_CONTEXT,
      );
      const within = trace.setSpan(parent ?? ROOT_CONTEXT, span);
      return {
        modelCall(input) {
          const attributes = {
            "gen_ai.operation.name": "chat",
            "gen_ai.system": turn.provider,
            ...common,
            ...(settings.captureContent && { "gen_ai.input.messages": JSON.stringify(input()) }),
          };
          const call = tracer.startSpan(`chat ${turn.model}`, { kind: SpanKind.CLIENT, attributes }, within);
          return { end: (outcome) => endModelSpan(call, outcome, settings.captureContent) };
        },
        toolCall(call) {
          const server = new URL(call.serverUrl);
          const attributes: Attributes = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.name,
            "gen_ai.tool.call.id": call.callId,
            // A tool the agent side (dialogql) calls on an external server.
            "gen_ai.tool.type": "extension",
            ...(turn.conversationId && { "gen_ai.conversation.id": turn.conversationId }),
            "mcp.method.name": "tools/call",
            "server.address": server.hostname,
            "server.port": Number(server.port || (server.protocol === "https:" ? 443 : 80)),
            "dialogql.mcp.server_label": call.serverLabel,
            ...(settings.captureContent && { "gen_ai.tool.call.arguments": call.arguments }),
          };
          const span = tracer.startSpan(`execute_tool ${call.name}`, { kind: SpanKind.INTERNAL, attributes }, within);
          return {
            end(outcome) {
              if (settings.captureContent) span.setAttribute("gen_ai.tool.call.result", outcome.output);
              if (outcome.errorType) {
                span.setAttribute("error.type", outcome.errorType);
                // The error's text is the tool's output: content, kept out unless captured.
                const message = settings.captureContent ? outcome.output : outcome.errorType;
                span.setStatus({ code: SpanStatusCode.ERROR, message });
              }
              span.end();
            },
          };
        },
        end: (outcome) => endModelSpan(span, outcome, settings.captureContent),
      };
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** Usage, finish reason and error of a model call or a turn, then its end. */
function endModelSpan(span: Span, outcome: ModelOutcome, captureContent: boolean) {
  if (outcome.inputTokens != null) span.setAttribute("gen_ai.usage.input_tokens", outcome.inputTokens);
  if (outcome.outputTokens != null) span.setAttribute("gen_ai.usage.output_tokens", outcome.outputTokens);
  if (outcome.finishReason) span.setAttribute("gen_ai.response.finish_reasons", [outcome.finishReason]);
  if (outcome.status) span.setAttribute("dialogql.response.status", outcome.status);
  if (captureContent && outcome.output != null) span.setAttribute("gen_ai.output.messages", outcome.output);
  if (outcome.error) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
  span.end();
}

// The trace context of each traced HTTP request, for the code that starts a model call on its behalf.
const requestContexts = new WeakMap<object, Context>();

export function setRequestTraceContext(request: object, context: Context) {
  requestContexts.set(request, context);
}

/** The trace context of `request` (undefined when tracing is off or it was not traced). */
export function requestTraceContext(request: object | undefined): Context | undefined {
  return request ? requestContexts.get(request) : undefined;
}
