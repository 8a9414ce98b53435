// An OpenTelemetry collector's front door for tests: a real HTTP server on a loopback port that
// accepts OTLP/HTTP JSON trace exports (POST /v1/traces, as @opentelemetry/exporter-trace-otlp-http
// sends them) and keeps every span, flattened, for tests to wait on and read.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  kind: number;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error (OTLP's status codes). */
  status: { code: number; message: string | null };
  /** Nanoseconds since the epoch (a double: exact to a fraction of a microsecond, enough to order spans). */
  startTime: number;
  serviceName: unknown;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** Resolves once a span matching `predicate` has arrived. */
  waitFor(predicate: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

const valueOf = (value: OtlpValue | undefined): unknown => {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
};

const attributesOf = (list: { key: string; value: OtlpValue }[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));

const statusOf = (status: { code?: number; message?: string } | undefined) => ({
  code: status?.code ?? 0,
  message: status?.message || null,
});

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const waiters: { predicate: (span: ReceivedSpan) => boolean; resolve: (span: ReceivedSpan) => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url !== "/v1/traces" || !String(request.headers["content-type"]).includes("json")) {
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans?: {
          resource?: { attributes?: { key: string; value: OtlpValue }[] };
          scopeSpans?: { spans?: Record<string, unknown>[] }[];
        }[];
      };
      for (const resourceSpans of body.resourceSpans ?? []) {
        const serviceName = attributesOf(resourceSpans.resource?.attributes)["service.name"];
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const raw of scope.spans ?? []) {
            const span: ReceivedSpan = {
              name: raw.name as string,
              traceId: raw.traceId as string,
              spanId: raw.spanId as string,
              parentSpanId: (raw.parentSpanId as string | undefined) || null,
              kind: raw.kind as number,
              attributes: attributesOf(raw.attributes as { key: string; value: OtlpValue }[]),
              status: statusOf(raw.status as { code?: number; message?: string } | undefined),
              startTime: Number(raw.startTimeUnixNano ?? 0),
              serviceName,
            };
            spans.push(span);
            for (const waiter of waiters.splice(0)) {
              if (waiter.predicate(span)) waiter.resolve(span);
              else waiters.push(waiter);
            }
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    waitFor(predicate) {
      const found = spans.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
