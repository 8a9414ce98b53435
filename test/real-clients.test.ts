// The real clients people point at /v1, each in its ordinary pattern, unchanged: the Agents SDK
// (previousResponseId, OpenAIConversationsSession, outputType), the AI SDK's Responses provider
// (multi-turn with store on, which sends earlier answers as item_reference; Output.object) and
// LangChain (useResponsesApi, withStructuredOutput). The model behind dialogql is the upstream
// stand-in; each test checks what the model was sent and what dialogql stored.
import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { Agent, OpenAIConversationsSession, OpenAIProvider, Runner, setTracingDisabled } from "@openai/agents";
import { generateText, type ModelMessage, Output } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
  setTracingDisabled(true);
});

const lastMessages = () => g.upstream.requests.at(-1)!.body.messages;
const personSchema = z.object({ name: z.string(), age: z.number() });

describe("@openai/agents", () => {
  const runner = () =>
    new Runner({ modelProvider: new OpenAIProvider({ openAIClient: g.openai, useResponses: true }) });
  const agent = (extra: object = {}) =>
    new Agent({ name: "Assistant", instructions: "Be brief.", model: "stand-in-1", ...extra });

  it("continues a run by previousResponseId", async () => {
    g.upstream.script({ output: [{ text: "Hello Ada." }] }, { output: [{ text: "You are Ada." }] });
    const first = await runner().run(agent(), "I am Ada.");
    const second = await runner().run(agent(), "Who am I?", { previousResponseId: first.lastResponseId });
    expect(second.finalOutput).toBe("You are Ada.");
    expect(lastMessages()).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "I am Ada." },
      { role: "assistant", content: "Hello Ada." },
      { role: "user", content: "Who am I?" },
    ]);
  });

  it("keeps a session in a conversation (OpenAIConversationsSession)", async () => {
    const session = new OpenAIConversationsSession({ client: g.openai });
    g.upstream.script({ output: [{ text: "Noted." }] }, { output: [{ text: "Your name is Ada." }] });
    await runner().run(agent(), "My name is Ada.", { session });
    const result = await runner().run(agent(), "What is my name?", { session });
    expect(result.finalOutput).toBe("Your name is Ada.");
    expect(lastMessages()).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "My name is Ada." },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "What is my name?" },
    ]);
    const conversationId = await session.getSessionId();
    const items = await session.getItems();
    expect(items).toHaveLength(4);
    expect(await prisma.dialog.findUnique({ where: { id: conversationId } })).not.toBeNull();
  });

  it("gives the model the output type as a JSON schema (outputType)", async () => {
    g.upstream.script({ output: [{ text: '{"name":"Ada","age":36}' }] });
    const result = await runner().run(agent({ outputType: personSchema }), "Who?");
    expect(result.finalOutput).toEqual({ name: "Ada", age: 36 });
    expect(g.upstream.requests.at(-1)!.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "output", strict: true },
    });
  });
});

describe("ai + @ai-sdk/openai (Responses provider)", () => {
  const sent: { input?: unknown[] }[] = [];
  const provider = () =>
    createOpenAI({
      baseURL: `${g.server.url}/v1`,
      apiKey: g.key,
      // Records what the SDK sends dialogql (it is otherwise unchanged).
      fetch: async (url, init) => {
        if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
        return fetch(url, init);
      },
    });

  it("multi-turn with store on: earlier answers come back as item_reference and resolve", async () => {
    const model = provider().responses("stand-in-1");
    g.upstream.script({ output: [{ text: "Hi Ada." }] }, { output: [{ text: "You are Ada." }] });
    const messages: ModelMessage[] = [{ role: "user", content: "I am Ada." }];
    const first = await generateText({ model, messages });
    messages.push(...first.response.messages, { role: "user", content: "Who am I?" });
    const second = await generateText({ model, messages });
    expect(second.text).toBe("You are Ada.");
    expect(sent.at(-1)!.input).toContainEqual({ type: "item_reference", id: expect.stringMatching(/^msg_/) });
    expect(lastMessages()).toEqual([
      { role: "user", content: "I am Ada." },
      { role: "assistant", content: "Hi Ada." },
      { role: "user", content: "Who am I?" },
    ]);
    // What was stored is the answer, not "[item_reference]".
    const stored = await prisma.event.findMany({
      where: { response: { id: second.response.id } },
      orderBy: { seq: "asc" },
      select: { type: true, content: true, parts: true },
    });
    // The AI SDK sends user text as input_text parts, kept as parts.
    const textOf = (event: (typeof stored)[number]) =>
      event.content ?? (event.parts as { text: string }[]).map((part) => part.text).join("");
    expect(stored.map((event) => [event.type, textOf(event)])).toEqual([
      ["HUMAN", "I am Ada."],
      ["AI", "Hi Ada."],
      ["HUMAN", "Who am I?"],
      ["AI", "You are Ada."],
    ]);
  });

  it("Output.object reaches the model as a JSON schema", async () => {
    g.upstream.script({ output: [{ text: '{"name":"Ada","age":36}' }] });
    const result = await generateText({
      model: provider().responses("stand-in-1"),
      output: Output.object({ schema: personSchema }),
      prompt: "Who?",
    });
    expect(result.output).toEqual({ name: "Ada", age: 36 });
    expect(g.upstream.requests.at(-1)!.body.response_format).toMatchObject({ type: "json_schema" });
  });
});

describe("@langchain/openai (useResponsesApi)", () => {
  const chat = () =>
    new ChatOpenAI({
      model: "stand-in-1",
      apiKey: g.key,
      configuration: { baseURL: `${g.server.url}/v1` },
      useResponsesApi: true,
      maxRetries: 0,
    });

  it("answers a conversation it is given", async () => {
    g.upstream.script({ output: [{ text: "Paris." }] });
    const answer = await chat().invoke([
      ["system", "Be brief."],
      ["human", "Capital of France?"],
    ]);
    expect(answer.content).toEqual([expect.objectContaining({ type: "text", text: "Paris." })]);
    expect(lastMessages()).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Capital of France?" },
    ]);
  });

  it("withStructuredOutput sends the schema and parses the answer", async () => {
    g.upstream.script({ output: [{ text: '{"name":"Ada","age":36}' }] });
    const person = await chat().withStructuredOutput(personSchema, { name: "person" }).invoke("Who?");
    expect(person).toEqual({ name: "Ada", age: 36 });
    expect(g.upstream.requests.at(-1)!.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "person" },
    });
  });
});
