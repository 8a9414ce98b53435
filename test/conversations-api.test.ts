// The Conversations API and the fidelity of /v1/responses, driven by the real `openai` SDK against
// a dialogql whose model is the upstream stand-in: conversations are dialogs, items their history,
// item_reference items resolve to stored items, text.format reaches the model, parameters dialogql
// cannot honour are refused by name, and a background stream resumes after any sequence number.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
});

describe("conversations", () => {
  it("creates a conversation with items and metadata, continues it, lists and reads its items", async () => {
    const conversation = await g.openai.conversations.create({
      metadata: { topic: "names" },
      items: [{ type: "message", role: "user", content: "My name is Ada." }],
    });
    expect(conversation).toMatchObject({ object: "conversation", metadata: { topic: "names" } });
    // One id for both: the conversation is the dialog.
    expect(await prisma.dialog.findUnique({ where: { id: conversation.id } })).not.toBeNull();

    g.upstream.script({ output: [{ text: "Your name is Ada." }] });
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      conversation: conversation.id,
      input: "What is my name?",
    });
    expect(response.conversation).toEqual({ id: conversation.id });
    expect(g.upstream.requests.at(-1)!.body.messages).toEqual([
      { role: "user", content: "My name is Ada." },
      { role: "user", content: "What is my name?" },
    ]);

    const items = [];
    for await (const item of g.openai.conversations.items.list(conversation.id, { order: "asc", limit: 2 }))
      items.push(item);
    expect(items.map((item) => (item.type === "message" ? [item.role, item.content] : item.type))).toEqual([
      ["user", [{ type: "input_text", text: "My name is Ada." }]],
      ["user", [{ type: "input_text", text: "What is my name?" }]],
      ["assistant", [{ type: "output_text", text: "Your name is Ada.", annotations: [], logprobs: [] }]],
    ]);
    // The answer's item id is the Response's output item id.
    expect(items[2]!.id).toBe(response.output[0]!.id);
    expect(await g.openai.conversations.items.retrieve(items[2]!.id!, { conversation_id: conversation.id })).toEqual(
      items[2],
    );

    const added = await g.openai.conversations.items.create(conversation.id, {
      items: [{ type: "message", role: "user", content: "Thanks." }],
    });
    expect(added.data.map((item) => item.type === "message" && item.content)).toEqual([
      [{ type: "input_text", text: "Thanks." }],
    ]);
    const updated = await g.openai.conversations.update(conversation.id, { metadata: { topic: "done" } });
    expect(updated.metadata).toEqual({ topic: "done" });
    expect(await g.openai.conversations.retrieve(conversation.id)).toEqual(updated);

    expect(await g.openai.conversations.delete(conversation.id)).toMatchObject({ deleted: true });
    await expect(g.openai.conversations.retrieve(conversation.id)).rejects.toMatchObject({ status: 404 });
  });

  it("deletes an item: the head turn loses it, or the history from its turn is rewritten as a branch", async () => {
    const conversation = await g.openai.conversations.create({
      items: [{ type: "message", role: "user", content: "a" }],
    });
    const texts = async () => {
      const page = await g.openai.conversations.items.list(conversation.id, { order: "asc" });
      return page.data.map((item) =>
        item.type === "message" ? (item.content[0] as { text: string }).text : item.type,
      );
    };
    const [b] = (
      await g.openai.conversations.items.create(conversation.id, {
        items: [{ type: "message", role: "assistant", content: "b" }],
      })
    ).data;
    await g.openai.conversations.items.delete(b!.id!, { conversation_id: conversation.id });
    expect(await texts()).toEqual(["a"]);

    const [c] = (
      await g.openai.conversations.items.create(conversation.id, {
        items: [
          { type: "message", role: "user", content: "c" },
          { type: "message", role: "assistant", content: "d" },
        ],
      })
    ).data;
    await g.openai.conversations.items.delete(c!.id!, { conversation_id: conversation.id });
    expect(await texts()).toEqual(["a", "d"]);
    // The old branch is kept: the dialog has two leaves.
    expect(await prisma.response.count({ where: { dialogId: conversation.id } })).toBe(3);
    await expect(
      g.openai.conversations.items.delete("evt_01NOPE", { conversation_id: conversation.id }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("a new chain names its conversation; another tenant's conversation is not found", async () => {
    const response = await g.openai.responses.create({ model: "stand-in-1", input: "Hello" });
    expect(response.conversation?.id).toBe(
      (await prisma.response.findUnique({ where: { id: response.id } }))!.dialogId,
    );
    const { key } = await import("./support/tenants.js").then((m) => m.tenantKey("tenant-b"));
    const other = g.clientFor(key);
    await expect(other.conversations.retrieve(response.conversation!.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      other.responses.create({ model: "stand-in-1", input: "Hi", conversation: response.conversation!.id }),
    ).rejects.toMatchObject({ status: 404, code: "conversation_not_found" });
  });

  it("refuses bad items with nothing stored", async () => {
    const before = await prisma.dialog.count();
    await expect(
      g.openai.conversations.create({ items: [{ type: "function_call_output", call_id: "nope", output: "x" }] }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await prisma.dialog.count()).toBe(before);
  });
});

describe("responses.create fidelity", () => {
  it("resolves item_reference to the stored item; an unknown id is a 400 naming it", async () => {
    g.upstream.script({ output: [{ text: "Hi Ada." }] }, { output: [{ text: "Ada." }] });
    const first = await g.openai.responses.create({ model: "stand-in-1", input: "I am Ada." });
    await g.openai.responses.create({
      model: "stand-in-1",
      input: [
        { role: "user", content: "I am Ada." },
        { type: "item_reference", id: first.output[0]!.id! },
        { role: "user", content: "Who am I?" },
      ],
    });
    expect(g.upstream.requests.at(-1)!.body.messages).toEqual([
      { role: "user", content: "I am Ada." },
      { role: "assistant", content: "Hi Ada." },
      { role: "user", content: "Who am I?" },
    ]);
    await expect(
      g.openai.responses.create({
        model: "stand-in-1",
        input: [{ type: "item_reference", id: "msg_01NOPE_0" }],
      }),
    ).rejects.toMatchObject({ status: 400, param: "input[0]", message: expect.stringContaining("msg_01NOPE_0") });
  });

  it("sends text.format to the upstream as response_format, and forwards parameters it has", async () => {
    g.upstream.script({ output: [{ text: '{"name":"Ada"}' }] });
    const schema = {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    };
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "Name?",
      text: { format: { type: "json_schema", name: "person", schema, strict: true } },
      parallel_tool_calls: false,
      prompt_cache_key: "k1",
      top_logprobs: 2,
      tools: [{ type: "function", name: "lookup", parameters: { type: "object", properties: {} } } as never],
      tool_choice: "none",
    });
    const body = g.upstream.requests.at(-1)!.body;
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "person", schema, strict: true },
    });
    expect(body).toMatchObject({ parallel_tool_calls: false, prompt_cache_key: "k1", logprobs: true, top_logprobs: 2 });
    // Function tools are strict unless they say otherwise, as the spec's default.
    expect(body.tools).toEqual([expect.objectContaining({ function: expect.objectContaining({ strict: true }) })]);
    expect(response).toMatchObject({ top_logprobs: 2, parallel_tool_calls: false, prompt_cache_key: "k1" });
    expect(response.tools[0]).toMatchObject({ strict: true });

    g.upstream.script({ output: [{ text: "{}" }] });
    await g.openai.responses.create({ model: "stand-in-1", input: "JSON", text: { format: { type: "json_object" } } });
    expect(g.upstream.requests.at(-1)!.body.response_format).toEqual({ type: "json_object" });
  });

  it("reasoning.summary: the reasoning the model gives comes as summary items and events", async () => {
    g.upstream.script({ output: [{ reasoning: "Think first." }, { text: "Done." }] });
    const stream = await g.openai.responses.create({
      model: "stand-in-1",
      input: "Go",
      reasoning: { summary: "auto" },
      stream: true,
    });
    const types: string[] = [];
    let summary = "";
    let completed: unknown;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.reasoning_summary_text.delta") summary += event.delta;
      if (event.type === "response.completed") completed = event.response;
    }
    expect(summary).toBe("Think first.");
    expect(types).toEqual(
      expect.arrayContaining([
        "response.reasoning_summary_part.added",
        "response.reasoning_summary_text.done",
        "response.reasoning_summary_part.done",
      ]),
    );
    const reasoning = (completed as { output: { type: string; summary?: unknown }[] }).output[0]!;
    expect(reasoning).toMatchObject({ type: "reasoning", summary: [{ type: "summary_text", text: "Think first." }] });
  });

  it("refuses what it cannot honour, by name, storing nothing", async () => {
    const before = await prisma.response.count();
    await expect(
      g.openai.responses.create({ model: "stand-in-1", input: "x", prompt: { id: "pmpt_1" } }),
    ).rejects.toMatchObject({ status: 400, param: "prompt" });
    await expect(
      g.openai.responses.create({ model: "stand-in-1", input: "x", include: ["reasoning.encrypted_content"] }),
    ).rejects.toMatchObject({ status: 400, param: "include" });
    await expect(
      g.openai.responses.create({ model: "stand-in-1", input: "x", frobnicate: 1 } as never),
    ).rejects.toMatchObject({ status: 400, param: "frobnicate" });
    expect(await prisma.response.count()).toBe(before);
  });

  it("truncation auto drops the oldest turns to fit the context window", async () => {
    const small = await startGeneratingServer({ MODEL_CONTEXT_TOKENS: 60 });
    const long = "word ".repeat(40);
    const first = await small.openai.responses.create({ model: "stand-in-1", input: long });
    await small.openai.responses.create({
      model: "stand-in-1",
      previous_response_id: first.id,
      input: "short question",
      truncation: "auto",
    });
    expect(small.upstream.requests.at(-1)!.body.messages).toEqual([{ role: "user", content: "short question" }]);
    await small.openai.responses.create({ model: "stand-in-1", previous_response_id: first.id, input: "again" });
    expect(small.upstream.requests.at(-1)!.body.messages).toHaveLength(3);
  });
});
