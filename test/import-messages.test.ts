// importMessages as a user meets it: a conversation becomes chained responses where createResponse
// would put them, continues with createResponse, and exports back for the next model call.
// Bad input is a ValidationError naming the offending message, and stores nothing.
import { describe, expect, it } from "vitest";
import { createResponse, member, rowCounts, turn } from "./support/dialogs.js";
import { dialogMessages, type ImportResult, importMessages, importOk, responseMessages } from "./support/formats.js";
import { executeOk } from "./support/graphql.js";
import { graphql } from "../src/client/generated/index.js";

const RESPONSES = graphql(`
  query ImportMessagesDialogLastSeq($id: ID!) {
    dialog(id: $id) {
      lastSeq
      head {
        id
      }
      responses(first: 20) {
        edges {
          node {
            id
            status
            model
            depth
            input {
              __typename
            }
            output {
              __typename
            }
          }
        }
      }
    }
  }
`);

const weatherCall = (id: string, city: string) => ({
  id,
  type: "function",
  function: { name: "get_weather", arguments: JSON.stringify({ city }) },
});

const DIALOG_LAST_SEQ2 = graphql(`
  query ImportMessagesDialogLastSeq2($id: ID!) {
    dialog(id: $id) {
      lastSeq
      history {
        edges {
          node {
            ... on BaseHistoryEvent {
              seq
            }
          }
        }
      }
    }
  }
`);

const RESPONSE_PREVIOUS_RESPONSE = graphql(`
  query ImportMessagesResponsePreviousResponse($id: ID!) {
    response(id: $id) {
      previousResponse {
        id
      }
      input {
        ... on HumanEvent {
          content
          parts {
            __typename
            ... on TextPart {
              text
            }
            ... on ImageUrlPart {
              url
              detail
            }
          }
        }
      }
    }
  }
`);

describe("importMessages", () => {
  it("makes one response per turn: system and user in its input, the assistant's steps in its output", async () => {
    const imported = await importOk({
      format: "OPENAI_CHAT",
      model: "gpt-4o",
      messages: [
        { role: "system", content: "You are a weather bot." },
        { role: "user", content: "Oslo?" },
        { role: "assistant", content: null, tool_calls: [weatherCall("call_o", "Oslo")] },
        { role: "tool", tool_call_id: "call_o", content: "-3°C" },
        { role: "assistant", content: "-3°C in Oslo." },
        { role: "user", content: "And Lima?" },
      ],
    });
    const { dialog } = await executeOk(RESPONSES, { id: imported.dialogId });
    const responses = dialog!.responses.edges.map((e) => e.node);
    expect(responses.map((r) => [r.status, r.model, r.depth])).toEqual([
      ["COMPLETED", "gpt-4o", 0],
      ["IN_PROGRESS", "gpt-4o", 1],
    ]);
    expect(responses[0]!.input.map((e) => e.__typename)).toEqual(["SystemEvent", "HumanEvent"]);
    expect(responses[0]!.output.map((e) => e.__typename)).toEqual(["ToolCallEvent", "ToolResultEvent", "AiEvent"]);
    expect(responses[1]!.input.map((e) => e.__typename)).toEqual(["HumanEvent"]);
    expect(dialog!.head!.id).toBe(imported.id);
    expect(imported.id).toBe(responses[1]!.id);
    expect(dialog!.lastSeq).toBe(6);
  });

  it("continues a response: seqs go on, and a tool result may answer a call already in the context", async () => {
    const first = await turn({
      input: [{ human: { content: "Weather in Lima?" } }],
      output: [{ toolCall: { callId: "call_l", toolName: "get_weather", args: { city: "Lima" } } }],
    });
    const imported = await importOk({
      format: "OPENAI_CHAT",
      previousResponseId: first.id,
      messages: [
        { role: "tool", tool_call_id: "call_l", content: "19°C" },
        { role: "assistant", content: "19°C in Lima." },
      ],
    });
    expect(imported.dialogId).toBe(first.dialogId);
    const chat = await responseMessages(imported.id, "OPENAI_CHAT");
    expect(chat).toEqual([
      { role: "user", content: "Weather in Lima?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_l", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_l", content: "19°C" },
      { role: "assistant", content: "19°C in Lima." },
    ]);
    const seqs = await executeOk(DIALOG_LAST_SEQ2, { id: first.dialogId });
    expect(seqs.dialog!.history.edges.map((e) => e.node.seq)).toEqual([1, 2, 3, 4]);
  });

  it("full loop: import an OpenAI conversation, continue it with createResponse, export it for the next call", async () => {
    const conversation = [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "My favourite language is Elixir." },
      { role: "assistant", content: "Noted!" },
    ];
    const imported = await importOk({ format: "OPENAI_CHAT", messages: conversation });
    const next = await createResponse({
      dialogId: imported.dialogId,
      input: [{ human: { content: "What is my favourite language?" } }],
      output: [{ ai: { content: "Elixir." } }],
    });
    expect(next).toMatchObject({ depth: 1, previousResponse: { id: imported.id }, dialog: { id: imported.dialogId } });
    expect(await dialogMessages(imported.dialogId, "OPENAI_CHAT")).toEqual([
      ...conversation,
      { role: "user", content: "What is my favourite language?" },
      { role: "assistant", content: "Elixir." },
    ]);
    expect(await dialogMessages(imported.dialogId, "OPENAI_RESPONSES")).toEqual([
      { type: "message", role: "system", content: "You are a helpful assistant." },
      { type: "message", role: "user", content: "My favourite language is Elixir." },
      { type: "message", role: "assistant", content: "Noted!" },
      { type: "message", role: "user", content: "What is my favourite language?" },
      { type: "message", role: "assistant", content: "Elixir." },
    ]);
  });

  it("chains to the dialog's head with only dialogId, and shows imported parts through GraphQL", async () => {
    const start = await turn({ input: [{ human: { content: "Hi" } }], output: [{ ai: { content: "Hello" } }] });
    const imported = await importOk({
      format: "OPENAI_RESPONSES",
      dialogId: start.dialogId,
      messages: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "What is this?" },
            { type: "input_image", image_url: "https://example.com/cat.jpg", detail: "high" },
          ],
        },
      ],
    });
    const { response } = await executeOk(RESPONSE_PREVIOUS_RESPONSE, { id: imported.id });
    expect(response!.previousResponse!.id).toBe(start.id);
    expect(response!.input[0]).toEqual({
      // GraphQL's content is non-null: empty for a message that has only parts.
      content: "",
      parts: [
        { __typename: "TextPart", text: "What is this?" },
        { __typename: "ImageUrlPart", url: "https://example.com/cat.jpg", detail: "high" },
      ],
    });
  });
});

describe("importMessages rejects bad input, naming the offending message, and stores nothing", () => {
  async function expectRejected(input: Record<string, unknown>, expected: { __typename: string; code: string }) {
    const before = await rowCounts();
    const result = await importMessages(input);
    expect(result).toMatchObject(expected);
    expect(await rowCounts()).toEqual(before);
    return result;
  }
  const invalid = { __typename: "ValidationError", code: "VALIDATION_ERROR" };
  const fieldErrors = (result: ImportResult) =>
    member(result, "ValidationError").fieldErrors.map((e) => [e.path.join("."), e.message]);

  it("a tool message answering an unknown call", async () => {
    const result = await expectRejected(
      {
        format: "OPENAI_CHAT",
        messages: [
          { role: "user", content: "Weather?" },
          { role: "assistant", content: null, tool_calls: [weatherCall("call_a", "Oslo")] },
          { role: "tool", tool_call_id: "call_a", content: "-3" },
          { role: "tool", tool_call_id: "call_nope", content: "?" },
        ],
      },
      invalid,
    );
    expect(fieldErrors(result)).toEqual([
      ["messages.3.tool_call_id", "no tool call with callId call_nope in the context"],
    ]);
  });

  it("malformed parts, arguments that are not a JSON object, duplicate call ids, unknown roles: all at once", async () => {
    const result = await expectRejected(
      {
        format: "OPENAI_CHAT",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "look" },
              { type: "image_url", image_url: {} },
            ],
          },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "c1", type: "function", function: { name: "f", arguments: "{city: Oslo}" } },
              { id: "c2", type: "function", function: { name: "f", arguments: "[1, 2]" } },
              { id: "c1", type: "function", function: { name: "f", arguments: "{}" } },
            ],
          },
          { role: "assistant" },
          { role: "wizard", content: "hi" },
          "not an object",
        ],
      },
      invalid,
    );
    expect(fieldErrors(result).map(([path]: string[]) => path)).toEqual([
      "messages.0.content.1.image_url.url",
      "messages.1.tool_calls.0.function.arguments",
      "messages.1.tool_calls.1.function.arguments",
      "messages.1.tool_calls.2.id",
      "messages.2",
      "messages.3.role",
      "messages.4",
    ]);
    expect(fieldErrors(result)[1]![1]).toMatch(/JSON object encoded as a string/);
    expect(fieldErrors(result)[3]![1]).toBe("duplicate tool call id c1");
  });

  it("Responses items: unknown types, an assistant part of no known kind, a reasoning item without id", async () => {
    const result = await expectRejected(
      {
        format: "OPENAI_RESPONSES",
        messages: [
          { role: "user", content: "hi" },
          { type: "web_search", id: "ws_1", status: "completed" },
          { role: "assistant", content: [{ type: "output_json", json: {} }] },
          { type: "reasoning", summary: [] },
          { type: "function_call", call_id: "c", name: "f", arguments: "nope" },
          { type: "function_call_output", call_id: "other", output: "1" },
        ],
      },
      invalid,
    );
    expect(fieldErrors(result).map(([path]: string[]) => path)).toEqual([
      "messages.1.type",
      "messages.2.content.0",
      "messages.3.id",
      "messages.4.arguments",
    ]);
  });

  it("not a list, an empty list, an unknown previousResponseId", async () => {
    expect(fieldErrors(await expectRejected({ format: "OPENAI_CHAT", messages: { role: "user" } }, invalid))).toEqual([
      ["messages", "must be a list of chat messages"],
    ]);
    expect(fieldErrors(await expectRejected({ format: "OPENAI_RESPONSES", messages: [] }, invalid))).toEqual([
      ["messages", "at least one Responses input item is required"],
    ]);
    const missing = await expectRejected(
      { format: "OPENAI_CHAT", previousResponseId: "resp_GONE", messages: [{ role: "user", content: "hi" }] },
      { __typename: "NotFoundError", code: "NOT_FOUND" },
    );
    expect(member(missing, "NotFoundError").message).toMatch(
      /^Response resp_GONE not found \(it may have .*been deleted\)$/,
    );
  });

  it("a tool result in createResponse still names its own field", async () => {
    const result = await createResponse({ input: [{ toolResult: { callId: "call_x", content: "1" } }] });
    expect(member(result, "ValidationError").fieldErrors).toEqual([
      { path: ["input", "0", "toolResult", "callId"], message: "no tool call with callId call_x in the context" },
    ]);
  });
});
