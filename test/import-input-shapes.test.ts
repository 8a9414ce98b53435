// Import takes what the provider's own API takes: each case below is typed with the provider SDK's
// input types (so it compiles only if the API would accept its shape), is imported, and comes
// back unchanged from an export in the same format.
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { UIMessage } from "ai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { type Format, importMessages, importOk, responseMessages } from "./support/formats.js";
import { withField } from "./support/narrow.js";

const call = { id: "call_1", type: "function" as const, function: { name: "f", arguments: "{}" } };
const chat: Record<string, ChatCompletionMessageParam[]> = {
  "system string": [{ role: "system", content: "Be brief." }],
  "system parts, with a name": [{ role: "system", content: [{ type: "text", text: "Be brief." }], name: "ops" }],
  "developer string and parts": [
    { role: "developer", content: "Use tools." },
    { role: "developer", content: [{ type: "text", text: "Never guess." }] },
  ],
  "user string": [{ role: "user", content: "Hi" }],
  "user parts of every kind": [
    {
      role: "user",
      content: [
        { type: "text", text: "Look" },
        { type: "image_url", image_url: { url: "https://x/y.png", detail: "low" } },
        { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
        { type: "file", file: { file_id: "file-1", filename: "a.pdf" } },
      ],
      name: "ana",
    },
  ],
  "assistant string": [{ role: "assistant", content: "Hello" }],
  "assistant text and refusal parts": [
    {
      role: "assistant",
      content: [
        { type: "text", text: "Partly:" },
        { type: "refusal", refusal: "not that" },
      ],
    },
  ],
  "assistant with only tool calls, then the tool's string and parts answers": [
    { role: "assistant", content: null, tool_calls: [call, { ...call, id: "call_2" }] },
    { role: "tool", tool_call_id: "call_1", content: "ok" },
    { role: "tool", tool_call_id: "call_2", content: [{ type: "text", text: "ok too" }] },
  ],
  "a custom tool call (free-text input) and its answer": [
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "ct_1", type: "custom", custom: { name: "sql", input: "SELECT 1" } }],
    },
    { role: "tool", tool_call_id: "ct_1", content: "1" },
  ],
};

const responses: Record<string, ResponseInputItem[]> = {
  "easy messages of every role, with and without type": [
    { role: "system", content: "Be brief." },
    { role: "developer", content: "Use tools.", type: "message" },
    { role: "user", content: [{ type: "input_text", text: "Hi" }] },
    { role: "assistant", content: "Hello" },
  ],
  "an input message with status": [
    { type: "message", role: "user", status: "completed", content: [{ type: "input_text", text: "Hi" }] },
  ],
  "an assistant output message without id and status (a replayed history)": [
    { role: "user", content: "Hi" },
    // The SDK's type wants id and status on an output message; a replayed history may leave them out.
    {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "Hello", annotations: [] }],
    } as unknown as ResponseInputItem,
  ],
  "an assistant output message as the API returned it": [
    {
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "Hello", annotations: [] }],
    },
  ],
  "function calls with and without id and status, outputs as string and parts": [
    { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
    { type: "function_call", call_id: "c2", name: "f", arguments: '{"a":1}', id: "fc_2", status: "completed" },
    { type: "function_call_output", call_id: "c1", output: "done" },
    {
      type: "function_call_output",
      call_id: "c2",
      output: [{ type: "input_text", text: "done" }],
      id: "fco_2",
      status: "completed",
    },
  ],
  "reasoning with encrypted content": [
    { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Think" }], encrypted_content: "gAAAA" },
  ],
  "built-in tool calls, MCP items, custom tools and item references, kept whole": [
    { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "q" } },
    { type: "file_search_call", id: "fs_1", status: "completed", queries: ["q"] },
    { type: "image_generation_call", id: "ig_1", status: "completed", result: "iVBORw0KGgo=" },
    { type: "mcp_approval_request", id: "mcpr_1", name: "delete", arguments: "{}", server_label: "fs" },
    { type: "mcp_approval_response", approval_request_id: "mcpr_1", approve: false },
    { type: "custom_tool_call", call_id: "ct_1", name: "sql", input: "SELECT 1" },
    { type: "custom_tool_call_output", call_id: "ct_1", output: "1" },
    { type: "item_reference", id: "msg_0" },
  ],
};

const anthropic: Record<string, { system?: unknown; messages: MessageParam[] }> = {
  "strings, blocks, a system message in the list": {
    system: "Be brief.",
    messages: [
      { role: "user", content: "Hi" },
      { role: "assistant", content: [{ type: "text", text: "Hello" }] },
      { role: "system", content: "Now in French." },
      { role: "user", content: [{ type: "text", text: "Salut" }] },
    ],
  },
  "tool use and results with and without content": {
    messages: [
      { role: "user", content: "Go" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "t1", name: "f", input: {} },
          { type: "tool_use", id: "t2", name: "f", input: { a: 1 } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1" },
          { type: "tool_result", tool_use_id: "t2", content: "x", is_error: true },
        ],
      },
    ],
  },
};

const aiSdk: Record<string, UIMessage[]> = {
  "every role, metadata, a tool part in each final state": [
    { id: "s", role: "system", parts: [{ type: "text", text: "Be brief." }] },
    { id: "u", role: "user", parts: [{ type: "text", text: "Go" }], metadata: { at: 1 } },
    {
      id: "a",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "tool-f", toolCallId: "c1", state: "output-available", input: {}, output: { ok: true } },
        { type: "tool-f", toolCallId: "c2", state: "output-error", input: {}, errorText: "boom" },
        {
          type: "tool-f",
          toolCallId: "c3",
          state: "output-denied",
          input: {},
          approval: { id: "ap", approved: false },
        },
        { type: "tool-f", toolCallId: "c4", state: "input-streaming", input: undefined },
        { type: "text", text: "Done" },
      ],
    },
  ],
};

const cases: [Format, string, unknown][] = [
  ...Object.entries(chat).map(([name, value]) => ["OPENAI_CHAT" as const, name, value] as [Format, string, unknown]),
  ...Object.entries(responses).map(
    ([name, value]) => ["OPENAI_RESPONSES" as const, name, value] as [Format, string, unknown],
  ),
  ...Object.entries(anthropic).map(
    ([name, value]) => ["ANTHROPIC_MESSAGES" as const, name, value] as [Format, string, unknown],
  ),
  ...Object.entries(aiSdk).map(([name, value]) => ["AI_SDK_UI" as const, name, value] as [Format, string, unknown]),
];

describe("every input shape the provider's API takes", () => {
  it.each(cases)("%s: %s", async (format, _name, messages) => {
    const imported = await importOk({ format, messages });
    // JSON has no undefined: an input given as `undefined` is absent, in the import as in the export.
    expect(await responseMessages(imported.id, format, true)).toEqual(JSON.parse(JSON.stringify(messages)));
  });
});

describe("what the APIs refuse is refused", () => {
  it.each([
    ["OPENAI_RESPONSES", [{ type: "not_an_item" }], "messages.0.type"],
    ["OPENAI_RESPONSES", [{ type: "reasoning", summary: [] }], "messages.0.id"],
    ["OPENAI_CHAT", [{ role: "wizard", content: "hi" }], "messages.0.role"],
    ["ANTHROPIC_MESSAGES", { messages: [{ role: "user", content: [] }] }, "messages.messages.0.content"],
    [
      "ANTHROPIC_MESSAGES",
      { messages: [{ role: "assistant", content: [{ type: "thinking", thinking: "x" }] }] },
      "messages.messages.0.content.0.signature",
    ],
    ["AI_SDK_UI", [{ role: "user", parts: [] }], "messages.0.id"],
    [
      "AI_SDK_UI",
      [{ id: "a", role: "assistant", parts: [{ type: "tool-f", toolCallId: "c", state: "output-error", input: {} }] }],
      "messages.0.parts.0.errorText",
    ],
  ] as [Format, unknown, string][])("%s: %j", async (format, messages, path) => {
    const result = await importMessages({ format, messages });
    expect(result.__typename).toBe("ValidationError");
    expect(withField(result, "fieldErrors").fieldErrors.map((e) => e.path.join("."))).toContain(path);
  });
});
