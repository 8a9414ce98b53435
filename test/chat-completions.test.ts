// dialogql as a Chat Completions endpoint: the real `openai` SDK sends whole conversations to
// /v1/chat/completions, a stand-in upstream answers, and each request is kept as one dialogql turn
// continuing the stored chain its messages begin with — a chat that grows is one dialog, a
// regenerated answer or an edited message a branch of it.
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { HISTORY_DELTA, subscribe } from "./support/live.js";
import { wsAs } from "./support/tenants.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
});

const stored = (responseId: string) =>
  prisma.response.findUniqueOrThrow({
    where: { id: responseId },
    select: {
      dialogId: true,
      previousResponseId: true,
      status: true,
      events: { orderBy: { seq: "asc" }, select: { phase: true, type: true, content: true, callId: true, args: true } },
    },
  });

async function ask(messages: ChatCompletionMessageParam[], reply: string) {
  g.upstream.script({ output: [{ text: reply }], usage: { input: 7, output: 3 } });
  return g.openai.chat.completions.create({ model: "stand-in-1", messages });
}

describe("chat.completions.create", () => {
  it("answers a chat.completion and keeps the request as a turn of a new dialog", async () => {
    const completion = await ask(
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi, I am Ada." },
      ],
      "Hello, Ada!",
    );
    expect(completion).toEqual({
      id: expect.stringMatching(/^resp_/),
      object: "chat.completion",
      created: expect.any(Number),
      model: "stand-in-1",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Hello, Ada!", refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: {
        prompt_tokens: 7,
        completion_tokens: 3,
        total_tokens: 10,
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(g.upstream.requests.at(-1)!.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi, I am Ada." },
    ]);
    expect(await stored(completion.id)).toMatchObject({
      previousResponseId: null,
      status: "COMPLETED",
      events: [
        { phase: "INPUT", type: "SYSTEM", content: "Be brief." },
        { phase: "INPUT", type: "HUMAN", content: "Hi, I am Ada." },
        { phase: "OUTPUT", type: "AI", content: "Hello, Ada!" },
      ],
    });
  });

  it("keeps a growing chat as one dialog, a regenerate and an edit as branches of it", async () => {
    const history: ChatCompletionMessageParam[] = [{ role: "user", content: "Count with me: one." }];
    const first = await ask(history, "Two.");
    history.push({ role: "assistant", content: "Two." }, { role: "user", content: "Three." });
    const second = await ask(history, "Four.");
    history.push({ role: "assistant", content: "Four." }, { role: "user", content: "Five." });
    const third = await ask(history, "Six.");

    const [a, b, c] = await Promise.all([stored(first.id), stored(second.id), stored(third.id)]);
    expect(b).toMatchObject({ dialogId: a.dialogId, previousResponseId: first.id });
    expect(c).toMatchObject({ dialogId: a.dialogId, previousResponseId: second.id });
    // Each turn holds only what was new: the user's message and the answer.
    expect(c.events.map((e) => [e.phase, e.content])).toEqual([
      ["INPUT", "Five."],
      ["OUTPUT", "Six."],
    ]);
    // The model was given the whole conversation.
    expect(g.upstream.requests.at(-1)!.body.messages).toHaveLength(5);

    // Regenerate the last answer: the same messages again continue the second turn, beside the third.
    const regenerated = await ask(history.slice(0, 5), "Six!");
    expect(await stored(regenerated.id)).toMatchObject({ dialogId: a.dialogId, previousResponseId: second.id });

    // Edit the second user message: a branch from the first turn.
    const edited = await ask([...history.slice(0, 2), { role: "user", content: "Three, four." }], "Five.");
    expect(await stored(edited.id)).toMatchObject({ dialogId: a.dialogId, previousResponseId: first.id });
    const branches = await prisma.response.findMany({ where: { previousResponseId: second.id }, select: { id: true } });
    expect(branches.map((r) => r.id).sort()).toEqual([third.id, regenerated.id].sort());
  });

  it("keeps every message after the match as the turn's input, however far back the match is", async () => {
    // A plain chat's messages are kept past the match only near its end; the rest are read again.
    const first = await ask([{ role: "user", content: "Far back: one." }], "Two.");
    const later = Array.from({ length: 7 }, (_, i): ChatCompletionMessageParam => ({
      role: i % 2 ? "user" : "assistant",
      content: `Said elsewhere ${i}.`,
    }));
    const continued = await ask(
      [{ role: "user", content: "Far back: one." }, { role: "assistant", content: "Two." }, ...later],
      "Ten.",
    );
    const turn = await stored(continued.id);
    expect(turn).toMatchObject({ previousResponseId: first.id });
    expect(turn.events.map((e) => [e.phase, e.type, e.content])).toEqual([
      ...later.map((m) => ["INPUT", m.role === "user" ? "HUMAN" : "AI", m.content]),
      ["OUTPUT", "AI", "Ten."],
    ]);

    // A long chat that matches nothing is a new dialog holding every message.
    const pasted = [{ role: "system", content: "Pasted." } as const, ...later];
    const fresh = await stored((await ask(pasted, "Eleven.")).id);
    expect(fresh.previousResponseId).toBeNull();
    expect(fresh.events.map((e) => e.content)).toEqual([...pasted.map((m) => m.content), "Eleven."]);
  });

  it("matches the system prompt too: a different one starts another dialog", async () => {
    const first = await ask(
      [
        { role: "system", content: "You are terse." },
        { role: "user", content: "Name a colour." },
      ],
      "Red.",
    );
    const next = await ask(
      [
        { role: "system", content: "You are verbose." },
        { role: "user", content: "Name a colour." },
        { role: "assistant", content: "Red." },
        { role: "user", content: "Another." },
      ],
      "Blue.",
    );
    const [a, b] = await Promise.all([stored(first.id), stored(next.id)]);
    expect(b.dialogId).not.toBe(a.dialogId);
    expect(b.previousResponseId).toBeNull();
  });

  it("streams chat.completion.chunk events with the usage at the end, and keeps the turn", async () => {
    g.upstream.script({ output: [{ text: "Once upon a time." }], usage: { input: 5, output: 4 } });
    const stream = await g.openai.chat.completions.create({
      model: "stand-in-1",
      messages: [{ role: "user", content: "Tell me a story." }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]).toMatchObject({
      object: "chat.completion.chunk",
      model: "stand-in-1",
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
      usage: null,
    });
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("Once upon a time.");
    expect(chunks.at(-2)!.choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }]);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 },
    });
    const id = chunks[0]!.id;
    expect(new Set(chunks.map((chunk) => chunk.id))).toEqual(new Set([id]));
    expect(await stored(id)).toMatchObject({
      status: "COMPLETED",
      events: [
        { phase: "INPUT", type: "HUMAN", content: "Tell me a story." },
        { phase: "OUTPUT", type: "AI", content: "Once upon a time." },
      ],
    });
  });

  it("offers tools, answers tool calls, and keeps the tool results in the same chain", async () => {
    const tools = [
      {
        type: "function" as const,
        function: {
          name: "get_weather",
          strict: true,
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ];
    g.upstream.script({ output: [{ toolCall: { id: "call_w1", name: "get_weather", arguments: '{"city":"Oslo"}' } }] });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Oslo?" }];
    const call = await g.openai.chat.completions.create({ model: "stand-in-1", messages, tools });
    expect(call.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: {
        content: null,
        tool_calls: [
          { id: "call_w1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        ],
      },
    });
    expect(g.upstream.requests.at(-1)!.body.tools).toEqual([
      { type: "function", function: expect.objectContaining({ name: "get_weather", strict: true }) },
    ]);

    messages.push(call.choices[0]!.message, { role: "tool", tool_call_id: "call_w1", content: "12°C, cloudy" });
    const answer = await ask(messages, "It is 12°C and cloudy in Oslo.");
    expect(await stored(answer.id)).toMatchObject({
      previousResponseId: call.id,
      events: [
        { phase: "INPUT", type: "TOOL_RESULT", callId: "call_w1", content: "12°C, cloudy" },
        { phase: "OUTPUT", type: "AI", content: "It is 12°C and cloudy in Oslo." },
      ],
    });
  });

  it("forwards response_format and the sampling parameters to the upstream", async () => {
    const format = {
      type: "json_schema" as const,
      json_schema: {
        name: "city",
        strict: true,
        schema: {
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
          additionalProperties: false,
        },
      },
    };
    g.upstream.script({ output: [{ text: '{"name":"Oslo"}' }] });
    const completion = await g.openai.chat.completions.create({
      model: "stand-in-1",
      messages: [{ role: "user", content: "A city in Norway, as JSON." }],
      response_format: format,
      temperature: 0.2,
      top_p: 0.9,
      max_completion_tokens: 50,
      stop: ["\n\n"],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      parallel_tool_calls: false,
      user: "ada",
      logit_bias: { "50256": -100 },
    });
    expect(completion.choices[0]!.message.content).toBe('{"name":"Oslo"}');
    expect(g.upstream.requests.at(-1)!.body).toMatchObject({
      response_format: format,
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
      stop: ["\n\n"],
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      parallel_tool_calls: false,
      user: "ada",
      logit_bias: { "50256": -100 },
    });
  });

  it("refuses a parameter it cannot honour with a 400 naming it, and stores nothing", async () => {
    const before = await prisma.response.count();
    const attempts: [Record<string, unknown>, string][] = [
      [{ n: 2 }, "n"],
      // top_logprobs asks for alternatives of the logprobs it needs `logprobs: true` for.
      [{ top_logprobs: 3 }, "top_logprobs"],
      [{ audio: { voice: "alloy", format: "mp3" } }, "audio"],
      [{ modalities: ["text", "audio"] }, "modalities[1]"],
      [{ functions: [{ name: "f" }] }, "functions"],
      [{ made_up: 1 }, "made_up"],
      [{ messages: [{ role: "wizard", content: "hi" }] }, "messages[0].role"],
    ];
    for (const [extra, param] of attempts) {
      const error = await g.openai.chat.completions
        .create({ model: "stand-in-1", messages: [{ role: "user", content: "Hi" }], ...extra } as never)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 400, param, type: "invalid_request_error" });
    }
    expect(await prisma.response.count()).toBe(before);
  });

  it("keeps the turn in the dialog X-Dialogql-Dialog names, and says where it kept it", async () => {
    const first = await ask([{ role: "user", content: "Remember: blue." }], "Noted.");
    const { dialogId } = await stored(first.id);
    // The same opening message, but this time in the named dialog's chain (not a new dialog).
    const raw = await g.openai.chat.completions
      .create(
        {
          model: "stand-in-1",
          messages: [
            { role: "user", content: "Remember: blue." },
            { role: "assistant", content: "Noted." },
            { role: "user", content: "What colour?" },
          ],
        },
        { headers: { "X-Dialogql-Dialog": dialogId } },
      )
      .withResponse();
    expect(raw.response.headers.get("x-dialogql-dialog")).toBe(dialogId);
    expect(raw.response.headers.get("x-dialogql-response")).toBe(raw.data.id);
    expect(await stored(raw.data.id)).toMatchObject({ dialogId, previousResponseId: first.id });

    const unrelated = await g.openai.chat.completions
      .create(
        { model: "stand-in-1", messages: [{ role: "user", content: "Something else." }] },
        { headers: { "X-Dialogql-Dialog": dialogId } },
      )
      .catch((e: unknown) => e);
    expect(unrelated).toMatchObject({ status: 409 });
    const missing = await g.openai.chat.completions
      .create(
        { model: "stand-in-1", messages: [{ role: "user", content: "Hi" }] },
        { headers: { "X-Dialogql-Dialog": "01J00000000000000000000000" } },
      )
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404 });
  });

  it("is watched like any turn: a historyDelta subscriber of the dialog gets the next request's turn", async () => {
    const history: ChatCompletionMessageParam[] = [{ role: "user", content: "Watch me." }];
    const first = await ask(history, "Watching.");
    const { dialogId } = await stored(first.id);
    const deltas = subscribe(wsAs(g.server, g.key), HISTORY_DELTA, { dialogId, afterSeq: 2 });
    history.push({ role: "assistant", content: "Watching." }, { role: "user", content: "Still?" });
    const second = await ask(history, "Still watching.");
    const seen: string[] = [];
    // Until the answer is seen with the turn completed. Not until the first COMPLETED alone: the
    // opening's delta, read back after a quick turn has ended, can carry the final status already
    // (a delta's status is read when it is, not as of its seq; noted on issue 32).
    for (let status = ""; status !== "COMPLETED" || !seen.some((event) => event.startsWith("AiEvent"));) {
      const { value } = await deltas.next();
      const delta = value!.data!.historyDelta;
      if (delta.responseId !== second.id) continue; // the first turn's own completion, replayed
      status = delta.status;
      for (const event of delta.append) seen.push(`${event.__typename} ${"content" in event ? event.content : ""}`);
    }
    expect(seen).toEqual(["HumanEvent Still?", "AiEvent Still watching."]);
    await deltas.return?.();
  });

  it("answers an upstream failure as a 502 naming the failed response, in the stream as an error chunk", async () => {
    g.upstream.script({ output: [], httpError: { status: 500, message: "upstream exploded" } });
    const error = await g.openai.chat.completions
      .create({ model: "stand-in-1", messages: [{ role: "user", content: "Fail, please." }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: "upstream_error", type: "server_error" });
    const failed = await prisma.response.findFirstOrThrow({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    expect(failed.status).toBe("FAILED");

    g.upstream.script({ output: [{ text: "Half an ans" }], dropAfterChunks: 2 });
    const stream = await g.openai.chat.completions.create({
      model: "stand-in-1",
      messages: [{ role: "user", content: "Fail midway." }],
      stream: true,
    });
    const streamed = await (async () => {
      for await (const chunk of stream) void chunk;
    })().catch((e: unknown) => e);
    expect(streamed).toMatchObject({ code: "upstream_error" });
  });

  it("keeps nothing with store: false", async () => {
    const before = await prisma.response.count();
    g.upstream.script({ output: [{ text: "Unkept." }] });
    const completion = await g.openai.chat.completions.create({
      model: "stand-in-1",
      messages: [{ role: "user", content: "Do not keep this." }],
      store: false,
    });
    expect(completion.choices[0]!.message.content).toBe("Unkept.");
    expect(await prisma.response.count()).toBe(before);
  });
});

describe("models", () => {
  it("lists the configured models and retrieves one; an unknown one is OpenAI's 404", async () => {
    const m = await startGeneratingServer({ MODELS: "stand-in-1, stand-in-2", MODEL_PROVIDERS: "stand-in-*=openai" });
    const list = [];
    for await (const model of m.openai.models.list()) list.push(model);
    expect(list).toEqual([
      { id: "stand-in-1", object: "model", created: expect.any(Number), owned_by: "openai" },
      { id: "stand-in-2", object: "model", created: expect.any(Number), owned_by: "openai" },
    ]);
    expect(await m.openai.models.retrieve("stand-in-2")).toEqual(list[1]);
    const missing = await m.openai.models.retrieve("gpt-unknown").catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: "model_not_found", param: "model" });
  });
});

describe("a model whose upstream is the Responses API", () => {
  it("gets the parameters that API has, and refuses by name the ones only Chat Completions has", async () => {
    const r = await startGeneratingServer({ UPSTREAM_API: "responses" });
    r.upstream.script({ output: [{ text: "Fine." }] });
    const completion = await r.openai.chat.completions.create({
      model: "stand-in-1",
      messages: [{ role: "user", content: "Hello?" }],
      max_completion_tokens: 20,
      temperature: 0.1,
    });
    expect(completion.choices[0]!.message.content).toBe("Fine.");
    expect(r.upstream.requests.at(-1)).toMatchObject({
      path: "/responses",
      body: { max_output_tokens: 20, temperature: 0.1 },
    });
    const refused = await r.openai.chat.completions
      .create({ model: "stand-in-1", messages: [{ role: "user", content: "Hi" }], logit_bias: { "1": 1 } })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, param: "logit_bias" });
  });
});
