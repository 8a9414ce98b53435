// Cross-format export on plain events: each step becomes its nearest equivalent in Anthropic's and
// the AI SDK's shapes, provider-only fields stay home, and what cannot be carried becomes a note.
import type { UiMessage } from "../src/formats/ai-sdk-ui.js";
import { describe, expect, it } from "vitest";
import { fromAnthropicConversation } from "../src/formats/anthropic-messages-import.js";
import { exportEvents } from "../src/formats/index.js";
import type { StoredEvent } from "../src/formats/stored-event.js";

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

// A chat-shaped agent turn, as createResponse or a chat import stores it.
const agentTurn = [
  event("SYSTEM", { content: "You are a weather bot." }),
  event("HUMAN", {
    content: "Weather here?",
    parts: [
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
    ],
  }),
  event("REASONING", { content: "Look it up." }),
  event("TOOL_CALL", { callId: "c1", toolName: "get_weather", args: { city: "Oslo" } }),
  event("TOOL_CALL", { callId: "c2", toolName: "get_weather", args: { city: "Lima" } }),
  event("TOOL_RESULT", { callId: "c1", toolName: "get_weather", content: "-3°C" }),
  event("TOOL_RESULT", { callId: "c2", toolName: "get_weather", content: "offline", isError: true }),
  event("AI", { content: "Oslo is -3°C." }),
];

describe("to ANTHROPIC_MESSAGES", () => {
  it("puts the system prompt on top, parallel results in one user message, and leaves unsigned reasoning out", () => {
    expect(exportEvents("ANTHROPIC_MESSAGES", agentTurn)).toEqual({
      system: "You are a weather bot.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Weather here?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
            { type: "text", text: "[audio (wav) left out: Anthropic messages have no audio block]" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "c1", name: "get_weather", input: { city: "Oslo" } },
            { type: "tool_use", id: "c2", name: "get_weather", input: { city: "Lima" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: "-3°C" },
            { type: "tool_result", tool_use_id: "c2", content: "offline", is_error: true },
          ],
        },
        { role: "assistant", content: "Oslo is -3°C." },
      ],
    });
  });
});

describe("to AI_SDK_UI", () => {
  it("makes one assistant message per run of steps, with step-starts and answered tool parts", () => {
    const messages = exportEvents("AI_SDK_UI", agentTurn) as UiMessage[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(messages[1]!.parts).toEqual([
      { type: "text", text: "Weather here?" },
      { type: "file", mediaType: "image/png", url: "data:image/png;base64,iVBORw0KGgo=" },
      { type: "file", mediaType: "audio/wav", url: "data:audio/wav;base64,UklGRg==" },
    ]);
    expect(messages[2]!.parts).toEqual([
      { type: "step-start" },
      { type: "reasoning", text: "Look it up." },
      {
        type: "tool-get_weather",
        toolCallId: "c1",
        state: "output-available",
        input: { city: "Oslo" },
        output: "-3°C",
      },
      {
        type: "tool-get_weather",
        toolCallId: "c2",
        state: "output-error",
        input: { city: "Lima" },
        errorText: "offline",
      },
      { type: "step-start" },
      { type: "text", text: "Oslo is -3°C." },
    ]);
  });
});

describe("from ANTHROPIC_MESSAGES to OpenAI", () => {
  const stored = () =>
    fromAnthropicConversation({
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Summarise", cache_control: { type: "ephemeral" } },
            {
              type: "document",
              source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" },
              title: "r.pdf",
            },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Short.", signature: "sig" },
            { type: "server_tool_use", id: "s1", name: "web_search", input: { query: "q" } },
            { type: "text", text: "It says hi.", citations: [] },
          ],
        },
      ],
    }).map(({ event: e }) => e as StoredEvent);

  it("leaves signatures, citations and cache_control at home, and notes what chat cannot carry", () => {
    expect(exportEvents("OPENAI_CHAT", stored(), { includeReasoning: true })).toEqual([
      { role: "system", content: [{ type: "text", text: "Be brief." }] },
      {
        role: "user",
        content: [
          { type: "text", text: "Summarise" },
          { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0=", filename: "r.pdf" } },
        ],
      },
      { role: "assistant", reasoning_content: "Short.", content: [{ type: "text", text: "[server_tool_use]" }] },
      { role: "assistant", content: "It says hi." },
    ]);
    // Responses has no place for Anthropic's signed thinking: it is left out.
    expect((exportEvents("OPENAI_RESPONSES", stored()) as { type?: string }[]).map((item) => item.type)).toEqual([
      "message",
      "message",
      "message",
      "message",
    ]);
  });
});
