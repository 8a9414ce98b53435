// Bad input gets its typed error and leaves the database exactly as it was.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { execute } from "./support/graphql.js";
import { createResponse, rowCounts, turn } from "./support/dialogs.js";

let dialogA: { id: string; dialogId: string };
let dialogB: { id: string; dialogId: string };

beforeAll(async () => {
  dialogA = await turn({
    input: [{ human: { content: "Weather in Oslo?" } }],
    output: [{ toolCall: { callId: "call_weather", toolName: "weather", args: { city: "Oslo" } } }],
  });
  dialogB = await turn({ input: [{ human: { content: "Unrelated" } }] });
});

/** Runs `write`, expects the typed error, and checks nothing was stored. */
async function expectRejected(
  input: Record<string, unknown>,
  expected: { __typename: string; code: string; message?: string | RegExp },
) {
  const before = await rowCounts();
  const result = await createResponse(input);
  expect(result.__typename).toBe(expected.__typename);
  expect(result.code).toBe(expected.code);
  if (expected.message) expect(result.message).toMatch(expected.message);
  expect(await rowCounts()).toEqual(before);
  return result;
}

describe("createResponse rejects bad input with a typed error and stores nothing", () => {
  it("an unknown previousResponseId is a NotFoundError", async () => {
    await expectRejected(
      { previousResponseId: "resp_DOESNOTEXIST", input: [{ human: { content: "hi" } }] },
      { __typename: "NotFoundError", code: "NOT_FOUND", message: "Response resp_DOESNOTEXIST not found" },
    );
  });

  it("an unknown dialogId is a NotFoundError", async () => {
    await expectRejected(
      { dialogId: "01JNOSUCHDIALOG", input: [{ human: { content: "hi" } }] },
      { __typename: "NotFoundError", code: "NOT_FOUND", message: "Dialog 01JNOSUCHDIALOG not found" },
    );
  });

  it("a previousResponseId from another dialog is a ConflictError", async () => {
    await expectRejected(
      { dialogId: dialogB.dialogId, previousResponseId: dialogA.id, input: [{ human: { content: "hi" } }] },
      { __typename: "ConflictError", code: "CONFLICT", message: new RegExp(`belongs to dialog ${dialogA.dialogId}`) },
    );
  });

  it("an empty input is a ValidationError on input", async () => {
    const result = await expectRejected({ input: [] }, { __typename: "ValidationError", code: "VALIDATION_ERROR" });
    expect(result.fieldErrors).toEqual([{ path: ["input"], message: "at least one input event is required" }]);
  });

  it("a tool call without a name, or with non-object args, names each offending field", async () => {
    const result = await expectRejected(
      {
        previousResponseId: dialogA.id,
        input: [{ human: { content: "go" } }],
        output: [
          { toolCall: { args: { q: 1 } } },
          { toolCall: { toolName: "  ", args: {} } },
          { toolCall: { toolName: "search", args: ["not", "an", "object"] } },
          { toolCall: { toolName: "search", args: "q=1" } },
        ],
      },
      { __typename: "ValidationError", code: "VALIDATION_ERROR" },
    );
    expect(result.fieldErrors).toEqual([
      { path: ["output", "0", "toolCall", "toolName"], message: "a tool call needs a tool name" },
      { path: ["output", "1", "toolCall", "toolName"], message: "a tool call needs a tool name" },
      { path: ["output", "2", "toolCall", "args"], message: "tool call arguments must be a JSON object" },
      { path: ["output", "3", "toolCall", "args"], message: "tool call arguments must be a JSON object" },
    ]);
  });

  it("a tool result whose callId matches no call in the context is a ValidationError", async () => {
    const result = await expectRejected(
      { previousResponseId: dialogA.id, input: [{ toolResult: { callId: "call_elsewhere", content: "42" } }] },
      { __typename: "ValidationError", code: "VALIDATION_ERROR" },
    );
    expect(result.fieldErrors).toEqual([
      {
        path: ["input", "0", "toolResult", "callId"],
        message: "no tool call with callId call_elsewhere in the context",
      },
    ]);
    // A call on another dialog's chain does not count either.
    await expectRejected(
      { previousResponseId: dialogB.id, input: [{ toolResult: { callId: "call_weather", content: "-3°C" } }] },
      { __typename: "ValidationError", code: "VALIDATION_ERROR" },
    );
  });

  it("accepts a tool result answering a call in the context or earlier in the same write", async () => {
    const answered = await createResponse({
      previousResponseId: dialogA.id,
      input: [{ toolResult: { callId: "call_weather", content: "-3°C" } }],
      output: [
        { toolCall: { callId: "call_2", toolName: "clock", args: {} } },
        { toolResult: { callId: "call_2", content: "12:00" } },
        { ai: { content: "Cold, at noon." } },
      ],
    });
    expect(answered.__typename).toBe("Response");
    // Each result is named after the tool of its call, whether the call is in the context or in the write.
    const named = await prisma.event.findMany({
      where: { responseId: answered.id, type: "TOOL_RESULT" },
      orderBy: { seq: "asc" },
    });
    expect(named.map((e) => [e.callId, e.toolName])).toEqual([
      ["call_weather", "weather"],
      ["call_2", "clock"],
    ]);
    // Answered within the write alone (no check against the context), it is named too.
    const inWrite = await createResponse({
      input: [{ human: { content: "time?" } }],
      output: [
        { toolCall: { callId: "call_3", toolName: "clock", args: {} } },
        { toolResult: { callId: "call_3", content: "13:00" } },
      ],
    });
    const [result] = await prisma.event.findMany({ where: { responseId: inWrite.id, type: "TOOL_RESULT" } });
    expect(result?.toolName).toBe("clock");
  });

  it("an oversized event is a ValidationError", async () => {
    const huge = "x".repeat(1024 * 1024 + 1);
    const result = await expectRejected(
      { input: [{ human: { content: "short" } }, { human: { content: huge } }] },
      { __typename: "ValidationError", code: "VALIDATION_ERROR" },
    );
    expect(result.fieldErrors[0].path).toEqual(["input", "1", "human"]);
    expect(result.fieldErrors[0].message).toMatch(/bytes; the limit is 1048576/);
  });

  it("malformed content parts, metadata and messages without content are ValidationErrors", async () => {
    const result = await expectRejected(
      {
        input: [
          { human: { parts: [{ type: "image_url", image_url: {} }] } },
          { human: { content: "hi", metadata: ["not", "an", "object"] } },
          { ai: {} },
          { reasoning: { modelName: "o3" } },
        ],
        metadata: "nope",
      },
      { __typename: "ValidationError", code: "VALIDATION_ERROR" },
    );
    expect(result.fieldErrors.map((e: any) => e.path.join("."))).toEqual([
      "input.0.human.parts.0",
      "input.1.human.metadata",
      "input.2.ai.content",
      "input.3.reasoning.content",
      "metadata",
    ]);
  });

  it("two kinds in one HistoryEventInput is refused by @oneOf before anything runs", async () => {
    const before = await rowCounts();
    const result = await execute(
      `mutation { createResponse(input: {input: [{human: {content: "a"}, ai: {content: "b"}}]}) { __typename } }`,
    );
    expect(result.errors?.[0]?.message).toMatch(/exactly one key/i);
    expect(await rowCounts()).toEqual(before);
  });
});

describe("queries for ids that do not exist", () => {
  it("answer null with a NOT_FOUND error", async () => {
    const result = await execute(`{ dialog(id: "01JMISSING") { id } response(id: "resp_MISSING") { id } }`);
    expect(result.data).toEqual({ dialog: null, response: null });
    // Both fields resolve in parallel, so the errors may come in either order.
    const errors = result.errors?.map((e) => [e.message, e.extensions?.code, e.path]);
    expect(errors?.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ["Dialog 01JMISSING not found", "NOT_FOUND", ["dialog"]],
      ["Response resp_MISSING not found", "NOT_FOUND", ["response"]],
    ]);
  });

  it("history of a response from another dialog is NOT_FOUND", async () => {
    const result = await execute(
      `query($d: ID!, $r: ID) { dialog(id: $d) { history(responseId: $r) { totalMessages } } }`,
      {
        d: dialogB.dialogId,
        r: dialogA.id,
      },
    );
    expect(result.errors?.[0]).toMatchObject({
      message: `Response ${dialogA.id} not found`,
      extensions: { code: "NOT_FOUND" },
    });
  });

  it("update and delete of a missing dialog are NotFoundErrors", async () => {
    const result = await execute(`mutation {
      u: updateDialog(input: {id: "01JNOPE", title: "x"}) { __typename ... on Error { code message } }
      d: deleteDialog(input: {id: "01JNOPE"}) { __typename ... on Error { code message } }
    }`);
    expect(result.data).toEqual({
      u: { __typename: "NotFoundError", code: "NOT_FOUND", message: "Dialog 01JNOPE not found" },
      d: { __typename: "NotFoundError", code: "NOT_FOUND", message: "Dialog 01JNOPE not found" },
    });
  });
});
