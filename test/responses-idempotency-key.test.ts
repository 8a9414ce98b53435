// /v1 POSTs that start a turn take an `Idempotency-Key` header (issue 29, finding 10): a client
// that lost the answer retries with the same key and the same body and is answered with the first
// call's turn — finished, still running, or streamed — while the model is called once and one
// response is stored; the same key with another body is refused naming the key. The real `openai`
// SDK is the client, a stand-in upstream the model.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { until } from "./support/until.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
});

const keyed = (key: string) => ({ headers: { "Idempotency-Key": key } });
const storedWithKey = (key: string) =>
  prisma.response.findMany({ where: { idempotencyKey: `tenant-a/${key}` }, select: { id: true, status: true } });

describe("Idempotency-Key on /v1", () => {
  it("a retried POST /v1/responses answers the first turn; the model is called once", async () => {
    g.upstream.script({ output: [{ text: "Only once." }], usage: { input: 3, output: 2 } });
    const body = { model: "stand-in-1", input: "Say it once." };
    const calls = g.upstream.requests.length;
    const first = await g.openai.responses.create(body, keyed("responses-1"));
    const retry = await g.openai.responses.create(body, keyed("responses-1"));

    expect(retry.id).toBe(first.id);
    expect(retry.output_text).toBe("Only once.");
    expect(retry.status).toBe("completed");
    expect(retry.usage).toEqual(first.usage);
    expect(g.upstream.requests.length).toBe(calls + 1);
    expect(await storedWithKey("responses-1")).toEqual([{ id: first.id, status: "COMPLETED" }]);
  });

  it("the same key with another body is a 409 naming the key, and stores nothing", async () => {
    g.upstream.script({ output: [{ text: "First." }] });
    await g.openai.responses.create({ model: "stand-in-1", input: "one" }, keyed("responses-2"));
    const calls = g.upstream.requests.length;
    const count = await prisma.response.count();

    const refused = await fetch(`${g.server.url}/v1/responses`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${g.key}`,
        "content-type": "application/json",
        "Idempotency-Key": "responses-2",
      },
      body: JSON.stringify({ model: "stand-in-1", input: "two" }),
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: {
        message: "Idempotency-Key responses-2 was already used for a different request",
        type: "invalid_request_error",
        param: null,
        code: "conflict",
      },
    });
    expect(g.upstream.requests.length).toBe(calls);
    expect(await prisma.response.count()).toBe(count);
  });

  it("a retry while the first call is still generating waits for it and answers its whole turn", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    g.upstream.script({ output: [{ text: "Slowly, but once." }], holdAfterFirstChunk: gate });
    const body = { model: "stand-in-1", input: "Take your time." };
    const calls = g.upstream.requests.length;
    const first = g.openai.responses.create(body, keyed("responses-3"));
    await until(() => g.upstream.requests.length === calls + 1, "the first call to reach the model");
    await until(async () => (await storedWithKey("responses-3")).length === 1, "the first turn to be stored");

    const retry = g.openai.responses.create(body, keyed("responses-3"));
    release();
    const [a, b] = await Promise.all([first, retry]);
    expect(b.id).toBe(a.id);
    expect(b.output_text).toBe("Slowly, but once.");
    expect(g.upstream.requests.length).toBe(calls + 1);
  });

  it("a streamed retry streams the stored turn, its text and its completion", async () => {
    g.upstream.script({ output: [{ text: "Streamed once." }] });
    const body = { model: "stand-in-1", input: "Stream it.", stream: true as const };
    const calls = g.upstream.requests.length;
    const collect = async (key: string) => {
      const events = [];
      for await (const event of await g.openai.responses.create(body, keyed(key))) events.push(event);
      return events;
    };
    const first = await collect("responses-4");
    const retry = await collect("responses-4");
    const text = (events: typeof first) =>
      events.flatMap((event) => (event.type === "response.output_text.delta" ? [event.delta] : [])).join("");
    const completed = (events: typeof first) => events.find((event) => event.type === "response.completed");

    expect(text(retry)).toBe("Streamed once.");
    expect(completed(retry)).toMatchObject({ response: { id: completed(first)!.response.id, status: "completed" } });
    expect(g.upstream.requests.length).toBe(calls + 1);
  });

  it("a retried POST /v1/chat/completions answers the first completion and keeps one turn", async () => {
    g.upstream.script({ output: [{ text: "Chat, once." }] });
    const body = { model: "stand-in-1", messages: [{ role: "user" as const, content: "Chat with me." }] };
    const calls = g.upstream.requests.length;
    const first = await g.openai.chat.completions.create(body, keyed("chat-1")).withResponse();
    const retry = await g.openai.chat.completions.create(body, keyed("chat-1")).withResponse();

    expect(retry.data.choices[0]!.message.content).toBe("Chat, once.");
    const kept = first.response.headers.get("x-dialogql-response");
    expect(kept).toMatch(/^resp_/);
    expect(retry.response.headers.get("x-dialogql-response")).toBe(kept);
    expect(g.upstream.requests.length).toBe(calls + 1);
    expect(await storedWithKey("chat-1")).toEqual([{ id: kept, status: "COMPLETED" }]);
  });

  it("store: false cannot be made idempotent: the key is refused, naming it", async () => {
    const refused = await fetch(`${g.server.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${g.key}`, "content-type": "application/json", "Idempotency-Key": "unstored" },
      body: JSON.stringify({ model: "stand-in-1", input: "keep nothing", store: false }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Idempotency-Key/);
  });
});
