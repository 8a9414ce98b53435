// dialogql as Anthropic's Messages API: the real `@anthropic-ai/sdk` sends whole conversations to
// /v1/messages, the model they name is served by whichever upstream it maps to (here the stand-in,
// speaking Anthropic's wire for claude-* and Chat Completions for the rest), and each request is
// kept as one dialogql turn continuing the stored chain its messages begin with.
import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";

let g: GeneratingServer;
let anthropic: Anthropic;
beforeAll(async () => {
  g = await startGeneratingServer({ ANTHROPIC_API_KEY: "sk-ant-stand-in" });
  anthropic = new Anthropic({ baseURL: g.server.url, apiKey: g.key, maxRetries: 0 });
});

const stored = (responseId: string) =>
  prisma.response.findUniqueOrThrow({
    where: { id: responseId },
    select: {
      dialogId: true,
      previousResponseId: true,
      status: true,
      events: { orderBy: { seq: "asc" }, select: { phase: true, type: true, content: true, callId: true } },
    },
  });

describe("messages.create", () => {
  it("answers an Anthropic message and keeps the turn; a growing conversation is one dialog", async () => {
    g.upstream.script({ output: [{ text: "Hello, Ada!" }], usage: { input: 9, output: 3 } });
    const messages: MessageParam[] = [{ role: "user", content: "Hi, I am Ada." }];
    const first = await anthropic.messages.create({
      model: "claude-stand-in",
      max_tokens: 100,
      system: "Be brief.",
      messages,
    });
    expect(first).toEqual({
      id: expect.stringMatching(/^resp_/),
      type: "message",
      role: "assistant",
      model: "claude-stand-in",
      content: [{ type: "text", text: "Hello, Ada!" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 3, cache_creation_input_tokens: null, cache_read_input_tokens: null },
    });
    const upstream = g.upstream.requests.at(-1)!;
    expect(upstream.path).toBe("/messages");
    expect(upstream.body).toMatchObject({
      model: "claude-stand-in",
      max_tokens: 100,
      system: [{ type: "text", text: "Be brief." }],
      messages: [{ role: "user", content: [{ type: "text", text: "Hi, I am Ada." }] }],
    });

    messages.push(
      { role: "assistant", content: first.content as MessageParam["content"] },
      { role: "user", content: "My name?" },
    );
    g.upstream.script({ output: [{ text: "Ada." }] });
    const second = await anthropic.messages.create({
      model: "claude-stand-in",
      max_tokens: 100,
      system: "Be brief.",
      messages,
    });
    const [a, b] = await Promise.all([stored(first.id), stored(second.id)]);
    expect(a.events.map((e) => [e.phase, e.type, e.content])).toEqual([
      ["INPUT", "SYSTEM", "Be brief."],
      ["INPUT", "HUMAN", "Hi, I am Ada."],
      ["OUTPUT", "AI", "Hello, Ada!"],
    ]);
    expect(b).toMatchObject({ dialogId: a.dialogId, previousResponseId: first.id });
    expect(b.events.map((e) => [e.phase, e.type, e.content])).toEqual([
      ["INPUT", "HUMAN", "My name?"],
      ["OUTPUT", "AI", "Ada."],
    ]);
  });

  it("uses tools: a tool_use block, then the tool_result continues the same chain", async () => {
    const tools = [
      {
        name: "get_weather",
        description: "The weather in a city",
        input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
      },
    ];
    g.upstream.script({ output: [{ toolCall: { id: "toolu_1", name: "get_weather", arguments: '{"city":"Oslo"}' } }] });
    const messages: MessageParam[] = [{ role: "user", content: "Weather in Oslo?" }];
    const call = await anthropic.messages.create({ model: "claude-stand-in", max_tokens: 200, tools, messages });
    expect(call.stop_reason).toBe("tool_use");
    expect(call.content).toEqual([{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }]);
    expect(g.upstream.requests.at(-1)!.body.tools).toEqual([expect.objectContaining({ name: "get_weather" })]);

    messages.push(
      { role: "assistant", content: call.content as MessageParam["content"] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "12°C" }] },
    );
    g.upstream.script({ output: [{ text: "12°C in Oslo." }] });
    const answer = await anthropic.messages.create({ model: "claude-stand-in", max_tokens: 200, tools, messages });
    expect(await stored(answer.id)).toMatchObject({
      previousResponseId: call.id,
      events: [
        { phase: "INPUT", type: "TOOL_RESULT", callId: "toolu_1", content: "12°C" },
        { phase: "OUTPUT", type: "AI", content: "12°C in Oslo." },
      ],
    });
  });

  it("serves a model that maps to an OpenAI-compatible upstream, converting both ways", async () => {
    g.upstream.script({ output: [{ text: "Bonjour." }], usage: { input: 4, output: 2 } });
    const message = await anthropic.messages.create({
      model: "stand-in-1",
      max_tokens: 50,
      system: "Answer in French.",
      messages: [{ role: "user", content: "Hello." }],
      stop_sequences: ["END"],
      output_config: { effort: "low" },
    });
    expect(message.content).toEqual([{ type: "text", text: "Bonjour." }]);
    expect(g.upstream.requests.at(-1)!).toMatchObject({
      path: "/chat/completions",
      body: {
        max_tokens: 50,
        stop: ["END"],
        reasoning_effort: "low",
        messages: [
          { role: "system", content: "Answer in French." },
          { role: "user", content: "Hello." },
        ],
      },
    });
  });

  it("asks the upstream for structured output (output_config.format)", async () => {
    const schema = {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    };
    g.upstream.script({ output: [{ text: '{"city":"Oslo"}' }] });
    const message = await anthropic.messages.create({
      model: "stand-in-1",
      max_tokens: 50,
      output_config: { format: { type: "json_schema", schema } },
      messages: [{ role: "user", content: "A city in Norway." }],
    });
    expect(message.content).toEqual([{ type: "text", text: '{"city":"Oslo"}' }]);
    expect(g.upstream.requests.at(-1)!.body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "response", strict: true, schema },
    });
  });

  it("answers errors in Anthropic's shape and stores nothing", async () => {
    const before = await prisma.response.count();
    const attempts: [Record<string, unknown>, number, string][] = [
      [{ max_tokens: undefined }, 400, "max_tokens"],
      [{ service_tier: "auto" }, 400, "service_tier"],
      [{ top_k: 5, model: "stand-in-1" }, 400, "top_k"],
      [{ messages: [{ role: "wizard", content: "Hi" }] }, 400, "messages.0.role"],
    ];
    for (const [extra, status, param] of attempts) {
      const error = await anthropic.messages
        .create({
          model: "claude-stand-in",
          max_tokens: 10,
          messages: [{ role: "user", content: "Hi" }],
          ...extra,
        } as never)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.APIError);
      expect(error).toMatchObject({ status, error: { type: "error", error: { type: "invalid_request_error" } } });
      expect((error as InstanceType<typeof Anthropic.APIError>).message).toContain(param.split(".")[0]!);
    }
    const unauthenticated = new Anthropic({ baseURL: g.server.url, apiKey: "dq_not_a_key", maxRetries: 0 });
    const refused = await unauthenticated.messages
      .create({ model: "claude-stand-in", max_tokens: 10, messages: [{ role: "user", content: "Hi" }] })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401, error: { type: "error", error: { type: "authentication_error" } } });
    expect(await prisma.response.count()).toBe(before);
  });
});

describe("upstream failures", () => {
  it("are a 502 in Anthropic's shape, and an error event mid-stream", async () => {
    g.upstream.script({ output: [], httpError: { status: 500, message: "upstream exploded" } });
    const error = await anthropic.messages
      .create({ model: "claude-stand-in", max_tokens: 10, messages: [{ role: "user", content: "Fail." }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, error: { type: "error", error: { type: "api_error" } } });

    g.upstream.script({ output: [{ text: "Half an ans" }], dropAfterChunks: 3 });
    const stream = anthropic.messages.stream({
      model: "claude-stand-in",
      max_tokens: 10,
      messages: [{ role: "user", content: "Fail midway." }],
    });
    const failure = await stream.finalMessage().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain("The model upstream failed");
  });
});

describe("messages.stream", () => {
  it("streams Anthropic's events, and keeps the turn", async () => {
    g.upstream.script({ output: [{ text: "Once upon a time." }], usage: { input: 6, output: 5 } });
    const stream = anthropic.messages.stream({
      model: "claude-stand-in",
      max_tokens: 100,
      messages: [{ role: "user", content: "A story, please." }],
    });
    const types: string[] = [];
    let text = "";
    stream.on("streamEvent", (event) => void types.push(event.type));
    stream.on("text", (delta) => void (text += delta));
    const final = await stream.finalMessage();
    expect(types[0]).toBe("message_start");
    expect(types.at(-1)).toBe("message_stop");
    expect(types).toContain("content_block_start");
    expect(types).toContain("content_block_delta");
    expect(types).toContain("content_block_stop");
    expect(types.at(-2)).toBe("message_delta");
    expect(text).toBe("Once upon a time.");
    expect(final).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "Once upon a time." }],
      stop_reason: "end_turn",
      usage: { output_tokens: 5 },
    });
    expect(await stored(final.id)).toMatchObject({
      status: "COMPLETED",
      events: [
        { phase: "INPUT", type: "HUMAN", content: "A story, please." },
        { phase: "OUTPUT", type: "AI", content: "Once upon a time." },
      ],
    });
  });

  it("streams a tool call as a tool_use block with input_json_delta", async () => {
    g.upstream.script({ output: [{ toolCall: { id: "toolu_9", name: "lookup", arguments: '{"q":"dialogql"}' } }] });
    const stream = anthropic.messages.stream({
      model: "claude-stand-in",
      max_tokens: 100,
      tools: [{ name: "lookup", input_schema: { type: "object", properties: { q: { type: "string" } } } }],
      messages: [{ role: "user", content: "Look it up." }],
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: "tool_use", id: "toolu_9", name: "lookup", input: { q: "dialogql" } }]);
    expect(final.stop_reason).toBe("tool_use");
  });
});

describe("thinking and stop sequences", () => {
  it("answers thinking blocks with their signature, and sends them back upstream on the next turn", async () => {
    g.upstream.script({ output: [{ reasoning: "Two and two." }, { text: "Four." }] });
    const messages: MessageParam[] = [{ role: "user", content: "2+2?" }];
    const first = await anthropic.messages.create({
      model: "claude-stand-in",
      max_tokens: 4096,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages,
    });
    expect(g.upstream.requests.at(-1)!.body.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
    expect(first.content).toEqual([
      { type: "thinking", thinking: "Two and two.", signature: "sig_0" },
      { type: "text", text: "Four." },
    ]);
    expect((await stored(first.id)).events.map((event) => event.type)).toEqual(["HUMAN", "REASONING", "AI"]);

    g.upstream.script({ output: [{ text: "Six." }] });
    messages.push(
      { role: "assistant", content: first.content as MessageParam["content"] },
      { role: "user", content: "3+3?" },
    );
    const second = await anthropic.messages.create({
      model: "claude-stand-in",
      max_tokens: 4096,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages,
    });
    // The same chain, and the upstream gets the signed thinking back with it.
    expect((await stored(second.id)).previousResponseId).toBe(first.id);
    expect(g.upstream.requests.at(-1)!.body.messages).toContainEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Two and two.", signature: "sig_0" },
        { type: "text", text: "Four." },
      ],
    });
  });

  it("streams thinking as thinking_delta, then its signature_delta", async () => {
    g.upstream.script({ output: [{ reasoning: "Let me see." }, { text: "Yes." }] });
    const stream = anthropic.messages.stream({
      model: "claude-stand-in",
      max_tokens: 4096,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [{ role: "user", content: "Is it?" }],
    });
    let thinking = "";
    const signatures: string[] = [];
    stream.on("thinking", (delta) => void (thinking += delta));
    stream.on("signature", (signature) => void signatures.push(signature));
    const final = await stream.finalMessage();
    expect(thinking).toBe("Let me see.");
    expect(signatures).toEqual(["sig_0"]);
    expect(final.content).toEqual([
      { type: "thinking", thinking: "Let me see.", signature: "sig_0" },
      { type: "text", text: "Yes." },
    ]);
  });

  it("says which stop sequence the model stopped at, whole and streamed", async () => {
    const ask = { model: "claude-stand-in", max_tokens: 100, stop_sequences: ["END", "STOP"] };
    g.upstream.script({ output: [{ text: "Counting 1 2 3 " }], stopSequence: "STOP" });
    const whole = await anthropic.messages.create({ ...ask, messages: [{ role: "user", content: "Count." }] });
    expect(g.upstream.requests.at(-1)!.body.stop_sequences).toEqual(["END", "STOP"]);
    expect(whole).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: "STOP" });

    g.upstream.script({ output: [{ text: "Counting again " }], stopSequence: "END" });
    const final = await anthropic.messages
      .stream({ ...ask, messages: [{ role: "user", content: "Count again." }] })
      .finalMessage();
    expect(final).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: "END" });
  });

  it("refuses sampling settings Anthropic would not apply, by name, before anything is stored", async () => {
    const before = await prisma.response.count();
    const thinking = { type: "enabled" as const, budget_tokens: 1024 };
    const attempts: [Record<string, unknown>, string][] = [
      [{ thinking, temperature: 0.5 }, "temperature"],
      [{ thinking, top_k: 5 }, "top_k"],
      [{ temperature: 0.5, top_p: 0.9 }, "top_p"],
    ];
    for (const [extra, param] of attempts) {
      const error = await anthropic.messages
        .create({ model: "claude-stand-in", max_tokens: 4096, messages: [{ role: "user", content: "Hi" }], ...extra })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as Error).message).toContain(param);
    }
    // Through /v1/responses too: Anthropic's temperature stops at 1.
    await expect(
      g.openai.responses.create({ model: "claude-stand-in", input: "Hi", temperature: 1.5 }),
    ).rejects.toMatchObject({ status: 400, param: "temperature" });
    expect(await prisma.response.count()).toBe(before);
  });
});
