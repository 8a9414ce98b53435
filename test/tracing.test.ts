// OpenTelemetry traces with OTEL_EXPORTER_OTLP_ENDPOINT set, received by a real OTLP/HTTP receiver:
// a span per request continuing the caller's traceparent, and a span per model call as its child,
// with the GenAI conventions' attributes — the conversation is the dialog — and no prompt text
// unless OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT asks for it.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelCatalog } from "../src/generation/providers.js";
import { type RunningServer, startServer } from "../src/server/http-server.js";
import { configWith, prisma, store } from "./support/database.js";
import { type OtlpReceiver, startOtlpReceiver } from "./support/otlp-receiver.js";
import { asCaller } from "./support/tenants.js";
import { startUpstreamStandIn, type UpstreamStandIn } from "./support/upstream-stand-in.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

let receiver: OtlpReceiver;
let upstream: UpstreamStandIn;
const servers: RunningServer[] = [];
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  upstream = await startUpstreamStandIn();
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await upstream.close();
  await receiver.close();
});

async function tracedServer(settings: Record<string, string> = {}) {
  const server = await startServer({
    store,
    config: configWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "20", ...settings }),
    port: 0,
    redisUrl: process.env.TEST_REDIS_URL ?? null,
    models: createModelCatalog({
      OPENAI_BASE_URL: upstream.url,
      OPENAI_API_KEY: "sk-stand-in",
      UPSTREAM_API: "chat",
      UPSTREAM_MAX_RETRIES: 0,
    }),
  });
  servers.push(server);
  return server;
}

const sdk = (server: RunningServer) =>
  new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: "any",
    maxRetries: 0,
    defaultHeaders: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
  });

describe("traces", () => {
  it("a /v1 call: the request span continues the caller's trace, the model call is its child and names the dialog", async () => {
    const server = await tracedServer();
    upstream.script({ output: [{ text: "The capital is Paris." }], usage: { input: 42, output: 7 } });
    const answer = await sdk(server).responses.create({ model: "gpt-4o-mini", input: "secret prompt text" });
    const { dialogId } = await prisma.response.findUniqueOrThrow({ where: { id: answer.id } });

    const call = await receiver.waitFor((span) => span.attributes["gen_ai.response.id"] === answer.id);
    const request = await receiver.waitFor((span) => span.spanId === call.parentSpanId);
    expect(request).toMatchObject({
      name: "POST /v1/responses",
      kind: SPAN_KIND_SERVER,
      traceId: TRACE_ID,
      parentSpanId: CALLER_SPAN,
      serviceName: "dialogql",
    });
    expect(request.attributes).toMatchObject({ "http.request.method": "POST", "http.response.status_code": 200 });
    expect(call).toMatchObject({ name: "chat gpt-4o-mini", kind: SPAN_KIND_CLIENT, traceId: TRACE_ID });
    expect(call.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.system": "openai",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.response.id": answer.id,
      "gen_ai.conversation.id": dialogId,
      "gen_ai.usage.input_tokens": 42,
      "gen_ai.usage.output_tokens": 7,
      "gen_ai.response.finish_reasons": ["stop"],
      "dialogql.response.status": "COMPLETED",
    });
    // No prompt or answer text unless asked for.
    const sent = JSON.stringify(receiver.spans);
    expect(sent).not.toContain("secret prompt text");
    expect(sent).not.toContain("Paris");
  });

  it("generateResponse over GraphQL: the model call is a child of the GraphQL request's span", async () => {
    const server = await tracedServer();
    upstream.script({ output: [{ text: "ok" }], usage: { input: 3, output: 1 } });
    const answer = await asCaller(
      server,
      null,
    )(
      `mutation { generateResponse(input: { model: "gpt-4o-mini", input: [{ human: { content: "hi" } }] }) { ... on Response { id dialog { id } } } }`,
    );
    const generated = (answer.body.data as { generateResponse: { id: string; dialog: { id: string } } })
      .generateResponse;
    const call = await receiver.waitFor((span) => span.attributes["gen_ai.response.id"] === generated.id);
    const request = await receiver.waitFor((span) => span.spanId === call.parentSpanId);
    expect(request.name).toBe("POST /graphql");
    expect(request.parentSpanId).toBeNull();
    expect(call.attributes["gen_ai.conversation.id"]).toBe(generated.dialog.id);
  });

  it("puts prompts and answers in model-call spans only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is set", async () => {
    const server = await tracedServer({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" });
    upstream.script({ output: [{ text: "Captured answer." }], usage: { input: 5, output: 2 } });
    const answer = await sdk(server).responses.create({ model: "gpt-4o-mini", input: "captured prompt" });
    const call = await receiver.waitFor((span) => span.attributes["gen_ai.response.id"] === answer.id);
    expect(String(call.attributes["gen_ai.input.messages"])).toContain("captured prompt");
    expect(call.attributes["gen_ai.output.messages"]).toBe("Captured answer.");
  });
});
