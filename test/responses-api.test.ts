// dialogql as a Responses API: the real `openai` SDK talks to /v1, a stand-in model upstream
// (a real HTTP server speaking Chat Completions) answers as scripted, and every turn is a stored
// dialogql Response, continued by previous_response_id, visible in GraphQL.
import type { ResponseInputItem, ResponseItem } from "openai/resources/responses/responses";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { asCaller } from "./support/tenants.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
});

const storedEvents = (responseId: string) =>
  prisma.event.findMany({
    where: { responseId },
    orderBy: { seq: "asc" },
    select: { phase: true, type: true, content: true, callId: true, toolName: true, args: true },
  });

describe("responses.create", () => {
  it("answers a full Response object and stores the turn as a dialogql Response", async () => {
    g.upstream.script({ output: [{ text: "Hello, Ada!" }], usage: { input: 12, output: 4 } });
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "Hi, I am Ada.",
      instructions: "Be brief.",
      metadata: { purpose: "test" },
      temperature: 0.5,
    });
    expect(response).toMatchObject({
      object: "response",
      status: "completed",
      model: "stand-in-1",
      error: null,
      incomplete_details: null,
      instructions: "Be brief.",
      previous_response_id: null,
      metadata: { purpose: "test" },
      temperature: 0.5,
      top_p: 1,
      store: true,
      background: false,
      tools: [],
      tool_choice: "auto",
      usage: { input_tokens: 12, output_tokens: 4, total_tokens: 16 },
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe("Hello, Ada!");
    expect(response.output).toEqual([
      expect.objectContaining({
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Hello, Ada!", annotations: [], logprobs: [] }],
      }),
    ]);
    // The upstream got the instructions as a system message, then the user's input.
    expect(g.upstream.requests.at(-1)!.body.messages!).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi, I am Ada." },
    ]);
    expect(await storedEvents(response.id)).toEqual([
      { phase: "INPUT", type: "HUMAN", content: "Hi, I am Ada.", callId: null, toolName: null, args: null },
      { phase: "OUTPUT", type: "AI", content: "Hello, Ada!", callId: null, toolName: null, args: null },
    ]);
    expect(await g.openai.responses.retrieve(response.id)).toEqual(response);
  });

  it("continues a response by previous_response_id: the model is given the whole chain", async () => {
    g.upstream.script({ output: [{ text: "Noted." }] }, { output: [{ text: "Your name is Ada." }] });
    const first = await g.openai.responses.create({ model: "stand-in-1", input: "My name is Ada." });
    const second = await g.openai.responses.create({
      model: "stand-in-1",
      previous_response_id: first.id,
      input: [{ role: "user", content: "What is my name?" }],
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(g.upstream.requests.at(-1)!.body.messages!).toEqual([
      { role: "user", content: "My name is Ada." },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "What is my name?" },
    ]);
    const stored = await prisma.response.findUniqueOrThrow({ where: { id: second.id } });
    expect(stored).toMatchObject({ previousResponseId: first.id, status: "COMPLETED", depth: 1 });
  });

  it("stores reasoning as a ReasoningEvent and gives it back as a reasoning item", async () => {
    g.upstream.script({ output: [{ reasoning: "Two plus two." }, { text: "4" }] });
    const response = await g.openai.responses.create({ model: "stand-in-1", input: "2+2?" });
    expect(response.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
    expect(response.output[0]).toMatchObject({ content: [{ type: "reasoning_text", text: "Two plus two." }] });
    expect((await storedEvents(response.id)).map((event) => [event.type, event.content])).toEqual([
      ["HUMAN", "2+2?"],
      ["REASONING", "Two plus two."],
      ["AI", "4"],
    ]);
  });

  it("keeps nothing with store: false, and a cut-off answer ends incomplete", async () => {
    const before = await prisma.response.count();
    g.upstream.script({ output: [{ text: "Once upon a" }], cutOff: true });
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "A story",
      store: false,
      max_output_tokens: 16,
    });
    expect(response).toMatchObject({
      status: "incomplete",
      store: false,
      incomplete_details: { reason: "max_output_tokens" },
    });
    expect(response.output_text).toBe("Once upon a");
    expect(await prisma.response.count()).toBe(before);
    await expect(g.openai.responses.retrieve(response.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("function calls", () => {
  const tools = [
    {
      type: "function" as const,
      name: "get_weather",
      description: "Weather in a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      strict: false,
    },
  ];

  it("stores the model's call and continues with the client's function_call_output", async () => {
    g.upstream.script(
      { output: [{ toolCall: { id: "call_w1", name: "get_weather", arguments: '{"city":"Paris"}' } }] },
      { output: [{ text: "Sunny in Paris." }] },
    );
    const asked = await g.openai.responses.create({ model: "stand-in-1", input: "Weather in Paris?", tools });
    expect(asked.output).toEqual([
      expect.objectContaining({
        type: "function_call",
        call_id: "call_w1",
        name: "get_weather",
        arguments: '{"city":"Paris"}',
      }),
    ]);
    expect(g.upstream.requests.at(-1)!.body.tools![0]!.function!.name).toBe("get_weather");

    const answered = await g.openai.responses.create({
      model: "stand-in-1",
      previous_response_id: asked.id,
      tools,
      input: [{ type: "function_call_output", call_id: "call_w1", output: '{"sky":"sunny"}' }],
    });
    expect(answered.output_text).toBe("Sunny in Paris.");
    expect(g.upstream.requests.at(-1)!.body.messages!.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_w1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_w1", content: '{"sky":"sunny"}' },
    ]);
    expect((await storedEvents(answered.id))[0]).toMatchObject({
      type: "TOOL_RESULT",
      callId: "call_w1",
      toolName: "get_weather",
    });
  });

  it("refuses an output for a call id the context does not have (400, nothing stored)", async () => {
    const first = await g.openai.responses.create({ model: "stand-in-1", input: "Hi" });
    const before = await prisma.response.count();
    const refused = await g.openai.responses
      .create({
        model: "stand-in-1",
        previous_response_id: first.id,
        input: [{ type: "function_call_output", call_id: "call_nope", output: "x" }],
      })
      .catch((error) => error);
    expect(refused).toMatchObject({ status: 400, param: "input[0].call_id" });
    expect(refused.message).toContain("call_nope");
    expect(await prisma.response.count()).toBe(before);
  });
});

describe("errors in the API's shape", () => {
  it("an unknown previous_response_id is previous_response_not_found", async () => {
    const error = await g.openai.responses
      .create({ model: "stand-in-1", input: "hi", previous_response_id: "resp_NOPE" })
      .catch((e) => e);
    expect(error).toMatchObject({ status: 400, code: "previous_response_not_found", param: "previous_response_id" });
  });

  it("a bad body is a 400 naming the parameter", async () => {
    const response = await fetch(`${g.server.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${g.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "stand-in-1", input: "hi", temperature: 7 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: expect.stringContaining("temperature"),
        type: "invalid_request_error",
        param: "temperature",
        code: null,
      },
    });
  });

  it("an upstream failure is stored FAILED and answered 502", async () => {
    g.upstream.script({ output: [], httpError: { status: 500, message: "model crashed" } });
    const error = await g.openai.responses.create({ model: "stand-in-1", input: "hi" }).catch((e) => e);
    expect(error).toMatchObject({ status: 502, code: "upstream_error" });
    const id = /resp_[0-9A-Z]+/.exec(error.message)![0];
    const stored = await g.openai.responses.retrieve(id);
    expect(stored).toMatchObject({ status: "failed", error: { code: "upstream_error" } });
    // The upstream's own words go to the log, not to the tenant (test/upstream-errors.test.ts).
    expect(stored.error!.message).toBe("The model provider failed (HTTP 500); try again later.");
  });

  it("a connection dropped mid-stream ends the turn FAILED with the text so far", async () => {
    g.upstream.script({ output: [{ text: "This answer will be cut short" }], dropAfterChunks: 3 });
    const error = await g.openai.responses.create({ model: "stand-in-1", input: "hi" }).catch((e) => e);
    expect(error).toMatchObject({ status: 502 });
    const id = /resp_[0-9A-Z]+/.exec(error.message)![0];
    const stored = await prisma.response.findUniqueOrThrow({ where: { id }, include: { events: true } });
    expect(stored.status).toBe("FAILED");
    expect(stored.events.find((event) => event.type === "AI")?.content).toBe("This answer will");
  });

  it("a tenant's key never continues or reads another tenant's response", async () => {
    const mine = await g.openai.responses.create({ model: "stand-in-1", input: "secret" });
    const other = await startGeneratingServer({}, "tenant-b").then((b) => g.clientFor(b.key));
    await expect(other.responses.retrieve(mine.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      other.responses.create({ model: "stand-in-1", input: "more", previous_response_id: mine.id }),
    ).rejects.toMatchObject({ status: 400, code: "previous_response_not_found" });
    const graphql = await asCaller(g.server, null)(`{ __typename }`);
    expect(graphql.status).toBe(401);
  });
});

describe("input items and deletion", () => {
  it("lists a response's input items a page at a time, then deletes the response", async () => {
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: [
        { role: "system", content: "Be terse." },
        { role: "user", content: "one" },
        { role: "user", content: "two" },
      ],
    });
    const newestFirst = await g.openai.responses.inputItems.list(response.id, { limit: 2 });
    // As OpenAI lists them: message items with their content as a list of parts.
    expect(newestFirst.data.map(({ id: _id, ...item }) => item)).toEqual([
      { type: "message", status: "completed", role: "user", content: [{ type: "input_text", text: "two" }] },
      { type: "message", status: "completed", role: "user", content: [{ type: "input_text", text: "one" }] },
    ]);
    expect(newestFirst.has_more).toBe(true);
    const all: ResponseItem[] = [];
    for await (const item of g.openai.responses.inputItems.list(response.id, { limit: 2, order: "asc" }))
      all.push(item);
    expect(
      all.map((item) => ["role" in item ? item.role : undefined, "content" in item ? item.content : undefined]),
    ).toEqual([
      ["system", [{ type: "input_text", text: "Be terse." }]],
      ["user", [{ type: "input_text", text: "one" }]],
      ["user", [{ type: "input_text", text: "two" }]],
    ]);

    await g.openai.responses.delete(response.id);
    await expect(g.openai.responses.retrieve(response.id)).rejects.toMatchObject({ status: 404 });
    expect(await prisma.event.count({ where: { responseId: response.id } })).toBe(0);
  });
});

describe("compact", () => {
  it("summarises a chain's context into items that can start a fresh one, storing nothing", async () => {
    g.upstream.script(
      { output: [{ text: "Noted: Ada likes tea." }] },
      { output: [{ text: "Ada likes tea; nothing is open." }] },
    );
    const first = await g.openai.responses.create({ model: "stand-in-1", input: "I am Ada and I like tea." });
    const before = await prisma.response.count();
    const response = await fetch(`${g.server.url}/v1/responses/compact`, {
      method: "POST",
      headers: { authorization: `Bearer ${g.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "stand-in-1", previous_response_id: first.id }),
    });
    const compacted = (await response.json()) as {
      object: string;
      output: ResponseInputItem[];
      [field: string]: unknown;
    };
    expect(response.status, JSON.stringify(compacted)).toBe(200);
    expect(compacted).toMatchObject({ object: "response.compaction", usage: { input_tokens: 10, output_tokens: 5 } });
    expect(compacted.output).toEqual([
      { type: "message", role: "user", content: "I am Ada and I like tea." },
      expect.objectContaining({
        role: "assistant",
        content: [expect.objectContaining({ text: "Ada likes tea; nothing is open." })],
      }),
    ]);
    expect(g.upstream.requests.at(-1)!.body.messages!.at(-1)).toEqual({
      role: "assistant",
      content: "Noted: Ada likes tea.",
    });
    expect(await prisma.response.count()).toBe(before);

    // The compacted items start a new chain as they are.
    g.upstream.script({ output: [{ text: "Tea it is." }] });
    const fresh = await g.openai.responses.create({
      model: "stand-in-1",
      input: [...compacted.output, { role: "user", content: "Drink?" }],
    });
    expect(fresh.output_text).toBe("Tea it is.");
  });
});
