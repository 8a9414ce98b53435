// OpenTelemetry traces with OTEL_EXPORTER_OTLP_ENDPOINT set, received by a real OTLP/HTTP receiver:
// a span per request continuing the caller's traceparent; the turn's span (`invoke_agent`) its
// child; under the turn one span per model call and per MCP tool call (`execute_tool`), with the
// GenAI conventions' attributes — the conversation is the dialog — and no prompt text unless
// OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT asks for it.
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelCatalog } from "../src/generation/providers.js";
import { type RunningServer, startServer } from "../src/server/http-server.js";
import { configWith, prisma, store } from "./support/database.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./support/otlp-receiver.js";
import { startTestMcpServer } from "./support/mcp-servers.js";
import { asCaller } from "./support/tenants.js";
import { until } from "./support/until.js";
import { startUpstreamStandIn, type UpstreamStandIn } from "./support/upstream-stand-in.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const SPAN_KIND_INTERNAL = 1;
const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const STATUS_ERROR = 2;

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

const isOf = (span: ReceivedSpan, responseId: string) => span.attributes["gen_ai.response.id"] === responseId;

describe("traces", () => {
  it("a /v1 call: the request span continues the caller's trace, the turn is its child, the model call the turn's, each naming the dialog", async () => {
    const server = await tracedServer();
    upstream.script({ output: [{ text: "The capital is Paris." }], usage: { input: 42, output: 7 } });
    const answer = await sdk(server).responses.create({ model: "gpt-4o-mini", input: "secret prompt text" });
    const { dialogId } = await prisma.response.findUniqueOrThrow({ where: { id: answer.id } });

    const turn = await receiver.waitFor((span) => span.name === "invoke_agent" && isOf(span, answer.id));
    const call = await receiver.waitFor((span) => span.parentSpanId === turn.spanId);
    const request = await receiver.waitFor((span) => span.spanId === turn.parentSpanId);
    expect(request).toMatchObject({
      name: "POST /v1/responses",
      kind: SPAN_KIND_SERVER,
      traceId: TRACE_ID,
      parentSpanId: CALLER_SPAN,
      serviceName: "dialogql",
    });
    expect(request.attributes).toMatchObject({ "http.request.method": "POST", "http.response.status_code": 200 });
    expect(turn).toMatchObject({ kind: SPAN_KIND_INTERNAL, traceId: TRACE_ID });
    expect(turn.attributes).toEqual({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.response.id": answer.id,
      "gen_ai.conversation.id": dialogId,
      "gen_ai.usage.input_tokens": 42,
      "gen_ai.usage.output_tokens": 7,
      "gen_ai.response.finish_reasons": ["stop"],
      "dialogql.response.status": "COMPLETED",
    });
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
    });
    // No prompt or answer text unless asked for.
    const sent = JSON.stringify(receiver.spans);
    expect(sent).not.toContain("secret prompt text");
    expect(sent).not.toContain("Paris");
  });

  it("generateResponse over GraphQL: the turn is a child of the GraphQL request's span", async () => {
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
    const turn = await receiver.waitFor((span) => span.name === "invoke_agent" && isOf(span, generated.id));
    const request = await receiver.waitFor((span) => span.spanId === turn.parentSpanId);
    expect(request.name).toBe("POST /graphql");
    expect(request.parentSpanId).toBeNull();
    expect(turn.attributes["gen_ai.conversation.id"]).toBe(generated.dialog.id);
  });

  it("an MCP turn: one span per model call and per tool call under the turn, in order, a failed tool marked", async () => {
    const server = await tracedServer();
    const mcp = await startTestMcpServer();
    upstream.script(
      {
        output: [{ toolCall: { name: "add", arguments: '{"a":2,"b":3}', id: "call_add" } }],
        usage: { input: 10, output: 1 },
      },
      {
        output: [{ toolCall: { name: "fail", arguments: '{"why":"secret why"}', id: "call_fail" } }],
        usage: { input: 20, output: 2 },
      },
      { output: [{ text: "Done." }], usage: { input: 30, output: 3 } },
    );
    const answer = await sdk(server).responses.create({
      model: "gpt-4o-mini",
      input: "add, then fail",
      tools: [{ type: "mcp", server_label: "calc", server_url: mcp.url, require_approval: "never" }],
    });
    expect(answer.status).toBe("completed");
    const { dialogId } = await prisma.response.findUniqueOrThrow({ where: { id: answer.id } });
    const turn = await receiver.waitFor((span) => span.name === "invoke_agent" && isOf(span, answer.id));
    expect(turn.attributes).toMatchObject({ "gen_ai.usage.input_tokens": 60, "gen_ai.usage.output_tokens": 6 });
    const childrenOf = (parent: ReceivedSpan) => receiver.spans.filter((span) => span.parentSpanId === parent.spanId);
    // (The children end first, but may come in another batch.)
    await until(() => childrenOf(turn).length >= 5, "the turn's model and tool calls");
    const children = childrenOf(turn).sort((a, b) => a.startTime - b.startTime);
    expect(children.map((span) => [span.name, span.kind])).toEqual([
      ["chat gpt-4o-mini", SPAN_KIND_CLIENT],
      ["execute_tool add", SPAN_KIND_INTERNAL],
      ["chat gpt-4o-mini", SPAN_KIND_CLIENT],
      ["execute_tool fail", SPAN_KIND_INTERNAL],
      ["chat gpt-4o-mini", SPAN_KIND_CLIENT],
    ]);
    const [first, add, , fail, last] = children;
    expect(first!.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 10,
      "gen_ai.response.finish_reasons": ["tool-calls"],
    });
    expect(last!.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 30,
      "gen_ai.response.finish_reasons": ["stop"],
    });
    const port = Number(new URL(mcp.url).port);
    expect(add!.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "add",
      "gen_ai.tool.call.id": "call_add",
      "gen_ai.tool.type": "extension",
      "gen_ai.conversation.id": dialogId,
      "mcp.method.name": "tools/call",
      "server.address": "127.0.0.1",
      "server.port": port,
      "dialogql.mcp.server_label": "calc",
    });
    expect(add!.status.code).not.toBe(STATUS_ERROR);
    expect(fail!.attributes).toMatchObject({
      "gen_ai.tool.call.id": "call_fail",
      "error.type": "mcp_tool_execution_error",
    });
    expect(fail!.status.code).toBe(STATUS_ERROR);
    // Neither arguments nor results unless content is captured.
    expect(JSON.stringify(receiver.spans)).not.toContain("secret why");
    await mcp.kill();
  });

  it("puts prompts and answers in model-call spans only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is set", async () => {
    const server = await tracedServer({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" });
    upstream.script({ output: [{ text: "Captured answer." }], usage: { input: 5, output: 2 } });
    const answer = await sdk(server).responses.create({ model: "gpt-4o-mini", input: "captured prompt" });
    const call = await receiver.waitFor((span) => span.name === "chat gpt-4o-mini" && isOf(span, answer.id));
    expect(String(call.attributes["gen_ai.input.messages"])).toContain("captured prompt");
    expect(call.attributes["gen_ai.output.messages"]).toBe("Captured answer.");
  });
});
