// The Chat Completions door with the clients people point at it, each in its ordinary pattern: the
// AI SDK's OpenAI chat provider (`openai.chat(model)`) and LangChain's `ChatOpenAI` in Chat
// Completions mode. Each sends the whole conversation every turn; dialogql keeps it as one dialog.
import { createOpenAI } from "@ai-sdk/openai";
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, type ModelMessage, streamText } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
});

/** The chain of the dialog's head, root first, as [input texts, output texts] per response. */
async function chainOf(responseId: string) {
  const chain = [];
  for (let id: string | null = responseId; id;) {
    const response: {
      previousResponseId: string | null;
      dialogId: string;
      events: { phase: string; content: string | null }[];
    } = await prisma.response.findUniqueOrThrow({
      where: { id },
      select: {
        previousResponseId: true,
        dialogId: true,
        events: { orderBy: { seq: "asc" }, select: { phase: true, content: true } },
      },
    });
    chain.unshift(response);
    id = response.previousResponseId;
  }
  return chain;
}

const newestResponse = () =>
  prisma.response.findFirstOrThrow({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } });

describe("the AI SDK's OpenAI chat provider", () => {
  it("keeps a multi-turn chat (generateText, then streamText) as one dialog", async () => {
    const provider = createOpenAI({ baseURL: `${g.server.url}/v1`, apiKey: g.key });
    const model = provider.chat("stand-in-1");
    const system = "You count.";
    const messages: ModelMessage[] = [{ role: "user", content: "One." }];
    g.upstream.script({ output: [{ text: "Two." }] });
    const first = await generateText({ model, system, messages, maxRetries: 0 });
    expect(first.text).toBe("Two.");
    messages.push(...first.response.messages, { role: "user", content: "Three." });

    g.upstream.script({ output: [{ text: "Four." }] });
    const second = streamText({ model, system, messages, maxRetries: 0 });
    expect(await second.text).toBe("Four.");
    expect(g.upstream.requests.at(-1)!.body.messages).toEqual([
      { role: "system", content: "You count." },
      { role: "user", content: "One." },
      { role: "assistant", content: "Two." },
      { role: "user", content: "Three." },
    ]);

    const chain = await chainOf((await newestResponse()).id);
    expect(chain.map((r) => r.events.map((e) => [e.phase, e.content]))).toEqual([
      [
        ["INPUT", "You count."],
        ["INPUT", "One."],
        ["OUTPUT", "Two."],
      ],
      [
        ["INPUT", "Three."],
        ["OUTPUT", "Four."],
      ],
    ]);
    expect(new Set(chain.map((r) => r.dialogId)).size).toBe(1);
  });
});

describe("LangChain's ChatOpenAI", () => {
  it("keeps a multi-turn chat (invoke, then stream) as one dialog", async () => {
    const chat = new ChatOpenAI({
      model: "stand-in-1",
      apiKey: g.key,
      configuration: { baseURL: `${g.server.url}/v1` },
      maxRetries: 0,
      useResponsesApi: false,
    });
    const history: BaseMessage[] = [new SystemMessage("You name colours."), new HumanMessage("A warm one.")];
    g.upstream.script({ output: [{ text: "Red." }] });
    const first = await chat.invoke(history);
    expect(first.content).toBe("Red.");
    history.push(new AIMessage(first.content as string), new HumanMessage("A cold one."));

    g.upstream.script({ output: [{ text: "Blue." }] });
    let streamed = "";
    for await (const chunk of await chat.stream(history)) streamed += chunk.content as string;
    expect(streamed).toBe("Blue.");

    const chain = await chainOf((await newestResponse()).id);
    expect(chain.map((r) => r.events.map((e) => [e.phase, e.content]))).toEqual([
      [
        ["INPUT", "You name colours."],
        ["INPUT", "A warm one."],
        ["OUTPUT", "Red."],
      ],
      [
        ["INPUT", "A cold one."],
        ["OUTPUT", "Blue."],
      ],
    ]);
  });
});
