// The pure conversions of src/formats, on plain event objects: how events written through
// GraphQL (no provider fields) read as OpenAI messages, how imports group into turns, reasoning
// options, and the transcript.
import { describe, expect, it } from "vitest";
import { fromChatMessages } from "../src/formats/openai-chat-import.js";
import { toChatMessages } from "../src/formats/openai-chat.js";
import { toResponsesItems } from "../src/formats/openai-responses.js";
import { fromResponsesItems } from "../src/formats/openai-responses-import.js";
import type { StoredEvent } from "../src/formats/stored-event.js";
import { renderTranscript } from "../src/formats/transcript.js";
import { groupIntoTurns } from "../src/formats/turns.js";

const event = (type: StoredEvent["type"], fields: Partial<StoredEvent> = {}): StoredEvent => ({
  type,
  content: null,
  parts: null,
  callId: null,
  toolName: null,
  args: null,
  isError: null,
  providerFields: null,
  ...fields,
});

// Seed 001's "complete" example, as createResponse stores it.
const seedComplete = [
  event("HUMAN", { content: "Read file.py" }),
  event("REASONING", { content: "I should read the file first..." }),
  event("AI", { content: "I'll read it" }),
  event("TOOL_CALL", { callId: "call_1", toolName: "read_file", args: { path: "file.py" } }),
  event("TOOL_RESULT", { callId: "call_1", toolName: "read_file", content: "print('hi')" }),
  event("AI", { content: "File contains..." }),
];

describe("chat export of events written through GraphQL", () => {
  it("puts tool calls on the assistant message before them and leaves reasoning out by default", () => {
    expect(toChatMessages(seedComplete)).toEqual([
      { role: "user", content: "Read file.py" },
      {
        role: "assistant",
        content: "I'll read it",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"file.py"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "print('hi')" },
      { role: "assistant", content: "File contains..." },
    ]);
  });

  it("with includeReasoning, puts reasoning on the assistant message it led to", () => {
    expect(toChatMessages(seedComplete, { includeReasoning: true })[1]).toMatchObject({
      role: "assistant",
      content: "I'll read it",
      reasoning_content: "I should read the file first...",
    });
  });

  it("groups parallel calls into one assistant message with null content", () => {
    const messages = toChatMessages([
      event("HUMAN", { content: "Weather in Oslo and Lima?" }),
      event("TOOL_CALL", { callId: "a", toolName: "weather", args: { city: "Oslo" } }),
      event("TOOL_CALL", { callId: "b", toolName: "weather", args: { city: "Lima" } }),
      event("TOOL_RESULT", { callId: "a", content: "-3" }),
      event("TOOL_RESULT", { callId: "b", content: "19" }),
    ]);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool"]);
    expect(messages[1]).toMatchObject({ content: null, tool_calls: [{ id: "a" }, { id: "b" }] });
  });

  it("gives a message with text and parts its text first; turns system and tool parts into text", () => {
    const [user, system] = toChatMessages([
      event("HUMAN", { content: "Look:", parts: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] }),
      event("SYSTEM", { parts: [{ type: "input_image", image_url: "https://x/rules.png", detail: "auto" }] }),
    ]);
    expect(user!.content).toEqual([
      { type: "text", text: "Look:" },
      { type: "image_url", image_url: { url: "https://x/y.png" } },
    ]);
    expect(system!.content).toEqual([{ type: "text", text: "[image https://x/rules.png]" }]);
  });
});

describe("Responses export", () => {
  it("writes canonical items for events written through GraphQL and leaves out reasoning it cannot replay", () => {
    expect(toResponsesItems(seedComplete)).toEqual([
      { type: "message", role: "user", content: "Read file.py" },
      { type: "message", role: "assistant", content: "I'll read it" },
      { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"file.py"}' },
      { type: "function_call_output", call_id: "call_1", output: "print('hi')" },
      { type: "message", role: "assistant", content: "File contains..." },
    ]);
  });

  it("includes imported reasoning items unless includeReasoning is false", () => {
    const events = fromResponsesItems([
      { role: "user", content: "Hi" },
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Greet back." }] },
      { role: "assistant", content: "Hello!" },
    ]).map(({ event: e }) => ({ ...e, callId: null }) as StoredEvent);
    expect(toResponsesItems(events).map((item) => item.type ?? "message")).toEqual(["message", "reasoning", "message"]);
    expect(toResponsesItems(events, { includeReasoning: false }).map((item) => item.type ?? "message")).toEqual([
      "message",
      "message",
    ]);
  });
});

describe("grouping an import into responses", () => {
  const turnsOf = (messages: unknown[]) =>
    groupIntoTurns(fromChatMessages(messages)).map((turn) => ({
      input: turn.input.map((i) => i.event.type),
      output: turn.output.map((i) => i.event.type),
    }));

  it("opens a response at each message to the model once the previous one has output", () => {
    expect(
      turnsOf([
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c", content: "ok" },
        { role: "assistant", content: "Done" },
        { role: "system", content: "Now in French." },
        { role: "user", content: "Merci" },
      ]),
    ).toEqual([
      { input: ["SYSTEM", "HUMAN"], output: ["TOOL_CALL", "TOOL_RESULT", "AI"] },
      { input: ["SYSTEM", "HUMAN"], output: [] },
    ]);
  });

  it("gives an import that starts with the assistant a first response with no input", () => {
    expect(
      turnsOf([
        { role: "assistant", content: "Hello!" },
        { role: "user", content: "Hi" },
      ]),
    ).toEqual([
      { input: [], output: ["AI"] },
      { input: ["HUMAN"], output: [] },
    ]);
  });

  it("orders an assistant message as reasoning, text, then its tool calls", () => {
    const events = fromChatMessages([
      {
        role: "assistant",
        content: "Checking",
        reasoning_content: "Need data",
        tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
      },
    ]).map((i) => i.event.type);
    expect(events).toEqual(["REASONING", "AI", "TOOL_CALL"]);
  });
});

describe("transcript", () => {
  it("numbers the events with their role and shortens long content", () => {
    const transcript = renderTranscript(
      [
        event("SYSTEM", { content: "You are helpful." }),
        event("HUMAN", { content: "What is Python?" }),
        event("AI", { content: "Python is a programming language\nthat lets you work quickly." }),
        event("TOOL_CALL", { callId: "c", toolName: "search", args: { q: "python" } }),
        event("TOOL_RESULT", { callId: "c", toolName: "search", content: "timeout", isError: true }),
        event("HUMAN", {
          parts: [
            { type: "text", text: "And this?" },
            { type: "image_url", image_url: { url: "u" } },
          ],
        }),
      ],
      { maxContentLength: 32 },
    );
    expect(transcript).toBe(
      [
        "History (6 events):",
        "  1. [system] You are helpful.",
        "  2. [user] What is Python?",
        "  3. [assistant] Python is a programming language...",
        '  4. [tool call] search({"q":"python"})',
        "  5. [tool error] search: timeout",
        "  6. [user] And this? [image]",
      ].join("\n"),
    );
    expect(renderTranscript([])).toBe("History (0 events)");
  });
});
