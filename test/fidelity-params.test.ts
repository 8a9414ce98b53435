// Parameters that ask for more than the answer's text, applied as OpenAI applies them, driven by
// the real `openai` SDK against dialogql with stand-in upstreams: token logprobs (Responses
// `include` / `top_logprobs`, Chat Completions `logprobs` / `top_logprobs`), stream obfuscation,
// and encrypted reasoning kept and sent back upstream on the next turn. Settings an upstream has
// no parameter for are refused by name, never dropped.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";

let chat: GeneratingServer;
let responses: GeneratingServer;
beforeAll(async () => {
  chat = await startGeneratingServer();
  responses = await startGeneratingServer({ UPSTREAM_API: "responses" });
});

const token = (piece: string, alternatives: number) => ({
  token: piece,
  logprob: -0.25,
  bytes: [...Buffer.from(piece, "utf8")],
  top_logprobs: Array.from({ length: alternatives }, (_, rank) => ({
    token: rank ? `${piece}~${rank}` : piece,
    logprob: rank ? -0.5 * rank : 0,
    bytes: [...Buffer.from(rank ? `${piece}~${rank}` : piece, "utf8")],
  })),
});

describe("logprobs on /v1/responses", () => {
  it("asks a Chat Completions upstream for them and answers them in the output_text part", async () => {
    chat.upstream.script({ output: [{ text: "Hello there" }], chunkChars: 6 });
    const response = await chat.openai.responses.create({
      model: "stand-in-1",
      input: "Hi",
      include: ["message.output_text.logprobs"],
      top_logprobs: 2,
    });
    expect(chat.upstream.requests.at(-1)!.body).toMatchObject({ logprobs: true, top_logprobs: 2 });
    const message = response.output[0]!;
    expect(message.type === "message" && message.content[0]).toMatchObject({
      type: "output_text",
      text: "Hello there",
      logprobs: [token("Hello ", 2), token("there", 2)],
    });
  });

  it("streams each delta's logprobs, and the whole list when the text is done", async () => {
    responses.upstream.script({ output: [{ text: "Hello there" }], chunkChars: 6 });
    const stream = await responses.openai.responses.create({
      model: "stand-in-1",
      input: "Hi",
      include: ["message.output_text.logprobs"],
      stream: true,
    });
    const deltas: unknown[] = [];
    let done: unknown;
    for await (const event of stream) {
      if (event.type === "response.output_text.delta") deltas.push(event.logprobs);
      if (event.type === "response.output_text.done") done = event.logprobs;
    }
    // `include` alone: the tokens' own logprobs, no alternatives; the upstream is asked just that.
    const upstreamBody = responses.upstream.requests.at(-1)!.body;
    expect(upstreamBody.include).toEqual(["message.output_text.logprobs"]);
    expect(upstreamBody.top_logprobs).toBeUndefined();
    expect(deltas).toEqual([[token("Hello ", 0)], [token("there", 0)]]);
    expect(done).toEqual([token("Hello ", 0), token("there", 0)]);
  });

  it("is refused for a background response (read back from what is stored) and for Anthropic", async () => {
    const background = responses.openai.responses.create({
      model: "stand-in-1",
      input: "Hi",
      background: true,
      include: ["message.output_text.logprobs"],
    });
    await expect(background).rejects.toMatchObject({ status: 400, param: "include" });
    const claude = await startGeneratingServer({ ANTHROPIC_API_KEY: "sk-ant-stand-in" });
    const before = await prisma.response.count();
    await expect(
      claude.openai.responses.create({ model: "claude-stand-in", input: "Hi", top_logprobs: 3 }),
    ).rejects.toMatchObject({ status: 400, param: "top_logprobs" });
    expect(await prisma.response.count()).toBe(before);
  });
});

describe("stream obfuscation", () => {
  it("pads every delta event unless include_obfuscation is false", async () => {
    const deltas = async (include?: boolean) => {
      chat.upstream.script({ output: [{ text: "Padded text." }] });
      const stream = await chat.openai.responses.create({
        model: "stand-in-1",
        input: "Hi",
        stream: true,
        ...(include !== undefined && { stream_options: { include_obfuscation: include } }),
      });
      const found: { delta: string; obfuscation?: string }[] = [];
      for await (const event of stream) if (event.type === "response.output_text.delta") found.push(event);
      return found;
    };
    const padded = await deltas();
    expect(padded.length).toBeGreaterThan(0);
    for (const event of padded) {
      expect(event.obfuscation).toMatch(/^[A-Za-z0-9]+$/);
      expect((event.delta.length + event.obfuscation!.length) % 32).toBe(0);
    }
    expect((await deltas(false)).every((event) => !("obfuscation" in event))).toBe(true);
  });

  it("pads a resumed background stream too, unless the GET says include_obfuscation=false", async () => {
    chat.upstream.script({ output: [{ text: "Background text." }] });
    const started = await chat.openai.responses.create({ model: "stand-in-1", input: "Hi", background: true });
    const read = async (query: string) => {
      const response = await fetch(`${chat.server.url}/v1/responses/${started.id}?stream=true${query}`, {
        headers: { authorization: `Bearer ${chat.key}` },
      });
      const text = await response.text();
      return text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)) as { type: string; obfuscation?: string });
    };
    const padded = (await read("")).filter((event) => event.type.endsWith(".delta"));
    expect(padded.length).toBeGreaterThan(0);
    expect(padded.every((event) => typeof event.obfuscation === "string")).toBe(true);
    const plain = (await read("&include_obfuscation=false")).filter((event) => event.type.endsWith(".delta"));
    expect(plain.every((event) => !("obfuscation" in event))).toBe(true);
  });
});

describe("a retrieve's include", () => {
  it("refuses logprobs (they are not kept) and unknown values, naming include", async () => {
    responses.upstream.script({ output: [{ text: "Kept." }] });
    const made = await responses.openai.responses.create({ model: "stand-in-1", input: "Q" });
    await expect(
      responses.openai.responses.retrieve(made.id, { include: ["message.output_text.logprobs"] }),
    ).rejects.toMatchObject({ status: 400, param: "include" });
    const unknown = await fetch(`${responses.server.url}/v1/responses/${made.id}?include[]=nonsense`, {
      headers: { authorization: `Bearer ${responses.key}` },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { param: "include" } });
  });
});

/** The encrypted content of the reasoning in a streamed retrieve: its item's done event, then its completed response. */
async function streamedReasoning(id: string, include: "reasoning.encrypted_content"[]) {
  const stream = await responses.openai.responses.retrieve(id, { stream: true, include });
  const seen: unknown[] = [];
  for await (const event of stream) {
    if (event.type === "response.output_item.done" && event.item.type === "reasoning") {
      seen.push(event.item.encrypted_content);
    }
    if (event.type === "response.completed") {
      const item = event.response.output.find((o) => o.type === "reasoning");
      seen.push(item && "encrypted_content" in item ? item.encrypted_content : undefined);
    }
  }
  return seen;
}

describe("encrypted reasoning", () => {
  it("is asked for, answered, kept, and sent back upstream with the next turn", async () => {
    responses.upstream.script({ output: [{ reasoning: "Think." }, { text: "Answer." }] });
    const first = await responses.openai.responses.create({
      model: "stand-in-1",
      input: "Q1",
      include: ["reasoning.encrypted_content"],
    });
    expect(responses.upstream.requests.at(-1)!.body.include).toEqual(["reasoning.encrypted_content"]);
    expect(first.output[0]).toMatchObject({ type: "reasoning", encrypted_content: "encrypted:Think." });
    // Kept: a later read that asks for it gives it back (one that does not, as OpenAI's, shows none),
    // and the next turn sends it to the upstream.
    const read = await responses.openai.responses.retrieve(first.id, { include: ["reasoning.encrypted_content"] });
    expect(read.output[0]).toMatchObject({ type: "reasoning", encrypted_content: "encrypted:Think." });
    expect(read.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
    const plain = await responses.openai.responses.retrieve(first.id);
    expect(plain.output[0]).toMatchObject({ type: "reasoning", encrypted_content: null });
    // A streamed read applies `include` the same way, in its items and its closing response.
    expect(await streamedReasoning(first.id, ["reasoning.encrypted_content"])).toEqual([
      "encrypted:Think.",
      "encrypted:Think.",
    ]);
    expect(await streamedReasoning(first.id, [])).toEqual([null, null]);

    responses.upstream.script({ output: [{ text: "Second." }] });
    await responses.openai.responses.create({ model: "stand-in-1", input: "Q2", previous_response_id: first.id });
    const input = responses.upstream.requests.at(-1)!.body.input as Record<string, unknown>[];
    expect(input).toContainEqual(expect.objectContaining({ type: "reasoning", encrypted_content: "encrypted:Think." }));
  });

  it("given back by a stateless client (store: false), goes to the upstream as it was given", async () => {
    responses.upstream.script({ output: [{ text: "Fine." }] });
    await responses.openai.responses.create({
      model: "stand-in-1",
      store: false,
      include: ["reasoning.encrypted_content"],
      input: [
        { role: "user", content: "Q1" },
        { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "opaque-blob" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "A1", annotations: [] }] },
        { role: "user", content: "Q2" },
      ] as never,
    });
    const input = responses.upstream.requests.at(-1)!.body.input as Record<string, unknown>[];
    expect(input).toContainEqual(expect.objectContaining({ type: "reasoning", encrypted_content: "opaque-blob" }));
  });

  it("is refused by name for a Chat Completions upstream, which has none", async () => {
    await expect(
      chat.openai.responses.create({ model: "stand-in-1", input: "Hi", include: ["reasoning.encrypted_content"] }),
    ).rejects.toMatchObject({ status: 400, param: "include" });
  });
});

describe("settings an upstream has no parameter for", () => {
  it("are refused by name instead of being dropped by the provider", async () => {
    const before = await prisma.response.count();
    await expect(
      responses.openai.responses.create({ model: "stand-in-1", input: "Hi", frequency_penalty: 0.5 } as never),
    ).rejects.toMatchObject({ status: 400, param: "frequency_penalty" });
    await expect(
      responses.openai.chat.completions.create({
        model: "stand-in-1",
        messages: [{ role: "user", content: "Hi" }],
        seed: 7,
      }),
    ).rejects.toMatchObject({ status: 400, param: "seed" });
    // A penalty of 0 is no penalty: nothing to refuse.
    // (The Open Responses spec has penalties; the openai SDK's types do not.)
    await responses.openai.responses.create({ model: "stand-in-1", input: "Hi", presence_penalty: 0 } as never);
    expect(await prisma.response.count()).toBe(before + 1);
  });
});

describe("sampling settings for reasoning models", () => {
  // The real provider decides what it drops; for each model id, dialogql either refuses the
  // setting by name or the stand-in upstream receives it — never a silent drop.
  const cases: [model: string, effort: "none" | "low" | null, refused: boolean][] = [
    ["o3-mini", null, true],
    ["gpt-5", null, true],
    ["gpt-5.1", "low", true],
    ["gpt-5.1", "none", false],
    ["gpt-5-chat-latest", null, false],
    ["gpt-4.1", null, false],
    ["stand-in-1", null, false],
  ];
  it.each(cases)("%s (effort %s): temperature refused = %s", async (model, effort, refused) => {
    responses.upstream.script({ output: [{ text: "Fine." }] });
    const asked = responses.openai.responses.create({
      model,
      input: "Hi",
      temperature: 0.3,
      top_p: 0.9,
      ...(effort && { reasoning: { effort } }),
    });
    if (refused) {
      await expect(asked).rejects.toMatchObject({ status: 400, param: "temperature" });
      return;
    }
    await asked;
    expect(responses.upstream.requests.at(-1)!.body).toMatchObject({ model, temperature: 0.3, top_p: 0.9 });
  });
});

describe("logprobs and obfuscation on /v1/chat/completions", () => {
  it("answers the choice's logprobs, whole and per chunk", async () => {
    chat.upstream.script({ output: [{ text: "Hello there" }], chunkChars: 6 });
    const completion = await chat.openai.chat.completions.create({
      model: "stand-in-1",
      messages: [{ role: "user", content: "Hi" }],
      logprobs: true,
      top_logprobs: 1,
    });
    expect(completion.choices[0]!.logprobs).toEqual({
      content: [token("Hello ", 1), token("there", 1)],
      refusal: null,
    });

    chat.upstream.script({ output: [{ text: "Hello there" }], chunkChars: 6 });
    const stream = await chat.openai.chat.completions.create({
      model: "stand-in-1",
      messages: [{ role: "user", content: "Hi again" }],
      logprobs: true,
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const content = chunks.filter((chunk) => chunk.choices[0]?.delta.content);
    expect(content.map((chunk) => chunk.choices[0]!.logprobs)).toEqual([
      { content: [token("Hello ", 0)], refusal: null },
      { content: [token("there", 0)], refusal: null },
    ]);
    // openai 6's chunk type does not name the field OpenAI's wire carries; read it as sent.
    expect(content.every((chunk) => typeof (chunk as { obfuscation?: unknown }).obfuscation === "string")).toBe(true);
  });
});
