// Context that fits a token budget: the newest turns that fit, system prompts always kept, a tool
// call never separated from its result, and a report of what was left out.
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../src/formats/stored-event.js";
import { eventTokens, fitToBudget, loadTokenizer } from "../src/formats/token-budget.js";
import { database } from "./support/database.js";
import { importOk } from "./support/formats.js";
import { execute, executeOk } from "./support/graphql.js";

let seq = 0;
const event = (type: StoredEvent["type"], fields: Partial<StoredEvent> = {}): StoredEvent => ({
  type,
  seq: ++seq,
  content: null,
  parts: null,
  callId: null,
  toolName: null,
  args: null,
  isError: null,
  providerFields: null,
  ...fields,
});

// Every word is one token in o200k_base, so costs are easy to read: text tokens + 4 per event.
const words = (n: number) =>
  Array.from({ length: n }, () => " hello")
    .join("")
    .trim();

describe("fitToBudget", async () => {
  const count = await loadTokenizer("O200K_BASE");

  it("counts an event's text with the real encoding, plus its framing", () => {
    const text = "The quick brown fox jumps over the lazy dog.";
    expect(eventTokens(event("HUMAN", { content: text }), count)).toBe(encode(text).length + 4);
    // Special tokens in a conversation are text to count, not a reason to fail.
    expect(eventTokens(event("HUMAN", { content: "What is <|endoftext|>?" }), count)).toBeGreaterThan(4);
    expect(
      eventTokens(
        event("HUMAN", { parts: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] }),
        count,
      ),
    ).toBe(4 + 85);
  });

  const conversation = () => {
    seq = 0;
    return [
      event("SYSTEM", { content: words(10) }), // 14
      event("HUMAN", { content: words(50) }), // 54
      event("AI", { content: words(50) }), // 54
      event("HUMAN", { content: words(20) }), // 24
      event("TOOL_CALL", { callId: "c1", toolName: "f", args: {} }),
      event("TOOL_RESULT", { callId: "c1", content: words(40) }), // 44
      event("AI", { content: words(10) }), // 14
      event("HUMAN", { content: words(5) }), // 9
    ];
  };

  it("keeps everything when it fits, and reports nothing dropped", () => {
    const events = conversation();
    const fitted = fitToBudget(events, 10_000, count);
    expect(fitted.events).toEqual(events);
    expect(fitted).toMatchObject({ droppedEventCount: 0, droppedThroughSeq: null });
  });

  it("drops the oldest turns, keeps the system prompt, never splits a tool call from its result", () => {
    const events = conversation();
    const call = eventTokens(events[4]!, count);
    // Room for the system prompt and the last two turns, not for the first one.
    const lastTwoTurns = 24 + call + 44 + 14 + 9;
    const fitted = fitToBudget(events, 14 + lastTwoTurns + 50, count);
    expect(fitted.events.map((e) => e.seq)).toEqual([1, 4, 5, 6, 7, 8]);
    expect(fitted).toMatchObject({ tokenCount: 14 + lastTwoTurns, droppedEventCount: 2, droppedThroughSeq: 3 });

    // A budget with room for the newest turn only.
    expect(fitToBudget(events, 14 + 14 + 9 + 10, count).events.map((e) => e.seq)).toEqual([1, 8]);
  });

  it("starts at a step when no whole turn fits, keeping a tool result with its call", () => {
    seq = 0;
    const events = [
      event("SYSTEM", { content: words(10) }), // 14
      event("HUMAN", { content: words(50) }), // 54
      event("TOOL_CALL", { callId: "c1", toolName: "f", args: {} }),
      event("TOOL_RESULT", { callId: "c1", content: words(40) }), // 44
      event("AI", { content: words(10) }), // 14
    ];
    const call = eventTokens(events[2]!, count);
    // Room for the result but not its call: the result goes too, the answer after it stays.
    expect(fitToBudget(events, 14 + 14 + 44 + call - 1, count).events.map((e) => e.seq)).toEqual([1, 5]);
    expect(fitToBudget(events, 14 + 14 + 44 + call, count).events.map((e) => e.seq)).toEqual([1, 3, 4, 5]);
  });

  it("leaves reasoning that the export leaves out uncounted", () => {
    seq = 0;
    const events = [
      event("HUMAN", { content: "hi" }),
      event("REASONING", { content: words(1000) }),
      event("AI", { content: "hello" }),
    ];
    expect(fitToBudget(events, 30, count, { reasoning: false }).droppedEventCount).toBe(0);
    expect(fitToBudget(events, 30, count).droppedEventCount).toBe(2);
  });
});

describe("messages(format:, maxTokens:, tokenizer:) through GraphQL", () => {
  const chat = [
    { role: "system", content: "You are terse." },
    { role: "user", content: words(300) },
    { role: "assistant", content: words(300) },
    { role: "user", content: "Weather in Oslo?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_o", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }],
    },
    { role: "tool", tool_call_id: "call_o", content: "-3°C" },
    { role: "assistant", content: "-3°C." },
  ];

  it("trims to the budget in every format and says what it dropped", async () => {
    const imported = await importOk({ format: "OPENAI_CHAT", messages: chat });
    const data = await executeOk(
      `query($id: ID!) {
        response(id: $id) {
          chat: messages(format: OPENAI_CHAT, maxTokens: 200, tokenizer: CL100K_BASE)
          anthropic: messages(format: ANTHROPIC_MESSAGES, maxTokens: 200)
          ui: messages(format: AI_SDK_UI, maxTokens: 200)
          fitted: fittedMessages(format: OPENAI_RESPONSES, maxTokens: 200) { messages tokenCount droppedEventCount droppedThroughSeq }
          all: fittedMessages(format: OPENAI_CHAT) { tokenCount droppedEventCount }
          dialog { tokenCount cl100k: tokenCount(tokenizer: CL100K_BASE) }
        }
      }`,
      { id: imported.id },
    );
    const { chat: trimmed, anthropic, ui, fitted, all, dialog } = data.response;
    expect(trimmed).toEqual([chat[0], ...chat.slice(3)]);
    expect(anthropic).toEqual({
      system: "You are terse.",
      messages: [
        { role: "user", content: "Weather in Oslo?" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "call_o", name: "get_weather", input: { city: "Oslo" } }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_o", content: "-3°C" }] },
        { role: "assistant", content: "-3°C." },
      ],
    });
    expect(ui.map((m: any) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(fitted).toMatchObject({ droppedEventCount: 2, droppedThroughSeq: 3 });
    expect(fitted.tokenCount).toBeLessThanOrEqual(200);
    expect(fitted.messages.map((item: any) => item.type ?? item.role)).toEqual([
      "message",
      "message",
      "function_call",
      "function_call_output",
      "message",
    ]);
    // Nothing dropped without a budget; the count is the whole context's.
    expect(all.droppedEventCount).toBe(0);
    expect(all.tokenCount).toBe(dialog.tokenCount);
    expect(dialog.tokenCount).toBeGreaterThan(600);
    expect(dialog.cl100k).toBeGreaterThan(600);
  });

  it("reads only the newest pages a budget needs, and fits them as the whole context would", async () => {
    // 1,800 events over two imports, with a developer prompt in the middle and tool calls throughout.
    const turns = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => [
        { role: "user", content: `Question ${from + i}: ${words(5)}` },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: `c${from + i}`, type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: `c${from + i}`, content: words(8) },
      ]).flat();
    const first = await importOk({
      format: "OPENAI_CHAT",
      messages: [{ role: "system", content: "Rules." }, ...turns(0, 300)],
    });
    const last = await importOk({
      format: "OPENAI_CHAT",
      previousResponseId: first.id,
      messages: [...turns(300, 150), { role: "developer", content: "Be brief." }, ...turns(450, 149)],
    });
    const { readContext } = await import("../src/services/context.js");
    const whole = await readContext(last.id, null, database);
    expect(whole.length).toBe(1 + 900 + 1 + 897);
    const count = await loadTokenizer("O200K_BASE");
    for (const maxTokens of [50, 3_000, 12_000, 100_000]) {
      const expected = fitToBudget(whole, maxTokens, count, { reasoning: false });
      const { response } = await executeOk(
        `query($id: ID!, $max: Int!) { response(id: $id) {
          fittedMessages(format: OPENAI_CHAT, maxTokens: $max) { messages tokenCount droppedEventCount droppedThroughSeq } } }`,
        { id: last.id, max: maxTokens },
      );
      const { exportEvents } = await import("../src/formats/index.js");
      expect(response.fittedMessages).toEqual({
        messages: exportEvents("OPENAI_CHAT", expected.events),
        tokenCount: expected.tokenCount,
        droppedEventCount: expected.droppedEventCount,
        droppedThroughSeq: expected.droppedThroughSeq,
      });
      expect(
        response.fittedMessages.messages.filter((m: any) => m.role === "system" || m.role === "developer"),
      ).toHaveLength(2);
    }
  });

  it("refuses a budget that is not a positive number of tokens", async () => {
    const imported = await importOk({ format: "OPENAI_CHAT", messages: chat.slice(0, 2) });
    const result = await execute(
      `query($id: ID!) { response(id: $id) { messages(format: OPENAI_CHAT, maxTokens: 0) } }`,
      {
        id: imported.id,
      },
    );
    expect(result.errors?.[0]?.message).toMatch(/maxTokens.*positive number of tokens/);
  });
});
