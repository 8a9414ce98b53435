// OpenTelemetry traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md, "Traces"): a
// span per HTTP request, continuing the caller's `traceparent`, and a span per model call as its
// child, named and described by the GenAI semantic conventions (`gen_ai.conversation.id` is the
// dialog). Spans go to an OTLP/HTTP receiver as JSON through the official SDK's exporter. Nothing
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

export interface ModelCall {
  /** The model call is over: its usage and how it ended. */
  end(outcome: {
    status: string;
    inputTokens?: number | null;
    outputTokens?: number | null;
    finishReason?: string | null;
    error?: string | null;
    output?: string | null;
  }): void;
}

export interface Tracing {
  readonly captureContent: boolean;
  /** A span for one HTTP request, continuing the `traceparent` in `headers`; its context is the parent of model calls. */
  startRequest(name: string, headers: Headers, attributes: Attributes): { context: Context; end(status: number): void };
  /** A span for one model call, a child of `parent` (a request's context) when given. */
  startModelCall(parent: Context | null | undefined, call: ModelCallStart): ModelCall;
  /** Sends what is pending. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface ModelCallStart {
  model: string;
  provider: string;
  /** The dialog (null for a turn that stores nothing). */
  conversationId: string | null;
  responseId: string;
  /** The context sent to the model, as JSON, when content is captured. */
  input?: () => unknown;
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
    startModelCall(parent, call) {
      const span: Span = tracer.startSpan(
        `chat ${call.model}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.system": call.provider,
            "gen_ai.provider.name": call.provider,
            "gen_ai.request.model": call.model,
            "gen_ai.response.id": call.responseId,
            ...(call.conversationId && { "gen_ai.conversation.id": call.conversationId }),
            ...(settings.captureContent && call.input && { "gen_ai.input.messages": JSON.stringify(call.input()) }),
          },
        },
        parent ?? ROOT_CONTEXT,
      );
      return {
        end(outcome) {
          if (outcome.inputTokens != null) span.setAttribute("gen_ai.usage.input_tokens", outcome.inputTokens);
          if (outcome.outputTokens != null) span.setAttribute("gen_ai.usage.output_tokens", outcome.outputTokens);
          if (outcome.finishReason) span.setAttribute("gen_ai.response.finish_reasons", [outcome.finishReason]);
          span.setAttribute("dialogql.response.status", outcome.status);
          if (settings.captureContent && outcome.output != null)
            span.setAttribute("gen_ai.output.messages", outcome.output);
          if (outcome.error) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
          span.end();
        },
      };
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
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
