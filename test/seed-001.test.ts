// Seed 001's three example histories, written through createResponse, come back from the REST
// endpoint in the seed's exact shape and from Dialog.history in the same order with the same totals.
import { describe, expect, it } from "vitest";
import { executeOk, restGet } from "./support/graphql.js";
import { graphql } from "../src/client/generated/index.js";
import { turn } from "./support/dialogs.js";

/** The REST history body as the seed shows it (a 404 carries `detail` instead). */
interface SeedHistory {
  dialog_id: string;
  messages: { type: string; content?: string; [field: string]: unknown }[];
  total_messages: number;
  total_reasoning: number;
  total_tool_calls: number;
}

const HISTORY_PAGE = graphql(`
  query Seed001History($id: ID!) {
    dialog(id: $id) {
      history {
        ...HistoryPageFields
      }
    }
  }
`);

const seedExamples = {
  basic: {
    write: {
      input: [{ human: { content: "Hello" } }],
      output: [{ ai: { content: "Hi!" } }],
    },
    expected: {
      messages: [
        { type: "human", content: "Hello" },
        { type: "ai", content: "Hi!" },
      ],
      total_messages: 2,
      total_reasoning: 0,
      total_tool_calls: 0,
    },
  },
  withReasoning: {
    write: {
      input: [{ human: { content: "Analyze code" } }],
      output: [
        { reasoning: { content: "First, I need to understand...", modelName: "gpt-4o" } },
        { ai: { content: "I'll analyze..." } },
      ],
    },
    expected: {
      messages: [
        { type: "human", content: "Analyze code" },
        { type: "reasoning", content: "First, I need to understand...", model_name: "gpt-4o" },
        { type: "ai", content: "I'll analyze..." },
      ],
      total_messages: 3,
      total_reasoning: 1,
      total_tool_calls: 0,
    },
  },
  complete: {
    write: {
      input: [{ human: { content: "Read file.py" } }],
      output: [
        { reasoning: { content: "I should read the file first..." } },
        { ai: { content: "I'll read it" } },
        { toolCall: { toolName: "read_file", args: { path: "file.py" } } },
        { ai: { content: "File contains..." } },
      ],
    },
    expected: {
      messages: [
        { type: "human", content: "Read file.py" },
        { type: "reasoning", content: "I should read the file first..." },
        { type: "ai", content: "I'll read it" },
        { type: "tool_call", tool_name: "read_file", args: { path: "file.py" } },
        { type: "ai", content: "File contains..." },
      ],
      total_messages: 5,
      total_reasoning: 1,
      total_tool_calls: 1,
    },
  },
};

describe.each(Object.entries(seedExamples))("seed 001 example %s", (_name, { write, expected }) => {
  it("comes back from GET /api/dialogs/{id}/history byte for byte", async () => {
    const { dialogId } = await turn({ model: "gpt-4o", ...write });
    const response = await app_get(`/api/dialogs/${dialogId}/history`);
    expect(response.status).toBe(200);
    expect(response.contentType).toMatch(/^application\/json/);
    // Key order is part of the shape: dialog_id, messages, then the totals.
    expect(response.text).toBe(JSON.stringify({ dialog_id: dialogId, ...expected }));
  });

  it("comes back from Dialog.history in the same order with the same totals", async () => {
    const { dialogId } = await turn({ model: "gpt-4o", ...write });
    const data = await executeOk(HISTORY_PAGE, { id: dialogId });
    const history = data.dialog!.history;
    expect(history.edges.map((e) => e.node.type.toLowerCase())).toEqual(expected.messages.map((m) => m.type));
    expect(history.edges.map((e) => e.node.seq)).toEqual(expected.messages.map((_, i) => i + 1));
    expect(history.totalMessages).toBe(expected.total_messages);
    expect(history.totalReasoning).toBe(expected.total_reasoning);
    expect(history.totalToolCalls).toBe(expected.total_tool_calls);
    const toolCall = history.edges.find((e) => e.node.__typename === "ToolCallEvent");
    if (toolCall) expect(toolCall.node).toMatchObject({ toolName: "read_file", args: { path: "file.py" } });
  });
});

describe("GET /api/dialogs/{id}/history", () => {
  it("answers 404 with the seed's body for an unknown dialog", async () => {
    const { status, body } = await restGet("/api/dialogs/01JUNKNOWNDIALOG/history");
    expect(status).toBe(404);
    expect(body).toEqual({ detail: "Dialog 01JUNKNOWNDIALOG not found" });
  });

  it("shows only the seed's four types, with totals counting what is shown", async () => {
    const first = await turn({
      input: [{ system: { content: "You are terse." } }, { human: { content: "Weather?" } }],
      output: [{ toolCall: { callId: "c1", toolName: "weather", args: { city: "Oslo" } } }],
    });
    await turn({
      previousResponseId: first.id,
      input: [{ toolResult: { callId: "c1", content: "-3°C" } }],
      output: [{ ai: { content: "Cold." } }],
    });
    const { body } = await restGet<SeedHistory>(`/api/dialogs/${first.dialogId}/history`);
    expect(body.messages).toEqual([
      { type: "human", content: "Weather?" },
      { type: "tool_call", tool_name: "weather", args: { city: "Oslo" } },
      { type: "ai", content: "Cold." },
    ]);
    expect(body.total_messages).toBe(3);
    expect(body.total_tool_calls).toBe(1);
  });

  it("reads a message given only as parts as the text of its parts", async () => {
    const written = await turn({
      input: [
        {
          human: {
            parts: [
              { type: "text", text: "What is in this picture?" },
              { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
              { type: "text", text: "Be brief." },
            ],
          },
        },
      ],
      output: [{ ai: { content: "A cat." } }],
    });
    const { body } = await restGet<SeedHistory>(`/api/dialogs/${written.dialogId}/history`);
    expect(body.messages).toEqual([
      { type: "human", content: "What is in this picture?\nBe brief." },
      { type: "ai", content: "A cat." },
    ]);
  });

  it("reads another branch with ?response_id=", async () => {
    const root = await turn({
      input: [{ human: { content: "Pick a colour" } }],
      output: [{ ai: { content: "Blue" } }],
    });
    const a = await turn({
      previousResponseId: root.id,
      input: [{ human: { content: "Another" } }],
      output: [{ ai: { content: "Red" } }],
    });
    await turn({
      previousResponseId: root.id,
      input: [{ human: { content: "Again" } }],
      output: [{ ai: { content: "Green" } }],
    });

    const head = await restGet<SeedHistory>(`/api/dialogs/${root.dialogId}/history`);
    expect(head.body.messages.at(-1)).toEqual({ type: "ai", content: "Green" });
    const branchA = await restGet<SeedHistory>(`/api/dialogs/${root.dialogId}/history?response_id=${a.id}`);
    expect(branchA.body.messages.map((m) => m.content)).toEqual(["Pick a colour", "Blue", "Another", "Red"]);

    const foreign = await turn({ input: [{ human: { content: "elsewhere" } }] });
    const wrong = await restGet<SeedHistory>(`/api/dialogs/${root.dialogId}/history?response_id=${foreign.id}`);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual({ detail: `Response ${foreign.id} not found` });
  });
});

async function app_get(path: string) {
  const { app } = await import("./support/graphql.js");
  const response = await app.fetch(`http://localhost${path}`);
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text: await response.text(),
  };
}
