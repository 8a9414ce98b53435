// MCP approvals through the `openai` SDK: a tool that needs approval ends the turn with an
// mcp_approval_request; the next request's mcp_approval_response (by previous_response_id or by
// conversation) runs the call, or tells the model it was denied without reaching the server. In
// GraphQL, a response's toolApprovals are typed and approveToolCall answers them.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { type McpServerProcess, startTestMcpServer, toolsCalled } from "./support/mcp-servers.js";
import { asCaller } from "./support/tenants.js";
import { until } from "./support/until.js";

let g: GeneratingServer;
let server: McpServerProcess;
beforeAll(async () => {
  [g, server] = await Promise.all([startGeneratingServer(), startTestMcpServer()]);
});

const tools = (requireApproval: unknown = "always") =>
  [{ type: "mcp", server_label: "calc", server_url: server.url, require_approval: requireApproval }] as never;

describe("require_approval", () => {
  it("ends the turn with an approval request; an approval runs the call and the model answers", async () => {
    g.upstream.script(
      { output: [{ text: "Let me add." }, { toolCall: { name: "add", arguments: '{"a":1,"b":2}', id: "call_add" } }] },
      { output: [{ text: "1 + 2 = 3" }] },
    );
    const asked = await g.openai.responses.create({ model: "stand-in-1", input: "1+2?", tools: tools() });
    expect(asked.status).toBe("completed");
    const request = asked.output.find((item) => item.type === "mcp_approval_request")!;
    expect(request).toEqual({
      type: "mcp_approval_request",
      id: expect.stringMatching(/^mcpr_/),
      server_label: "calc",
      name: "add",
      arguments: '{"a":1,"b":2}',
    });
    const approved = await g.openai.responses.create({
      model: "stand-in-1",
      previous_response_id: asked.id,
      tools: tools(),
      input: [{ type: "mcp_approval_response", approval_request_id: request.id, approve: true }],
    });
    expect(approved.output.map((item) => item.type)).toEqual(["mcp_call", "message"]);
    expect(approved.output[0]).toMatchObject({
      name: "add",
      output: "3",
      approval_request_id: request.id,
      error: null,
    });
    expect(approved.output_text).toBe("1 + 2 = 3");
    expect(await toolsCalled(server.url)).toContain("add");
    // The model saw its own call and the result, never the approval bookkeeping.
    const messages = g.upstream.requests.at(-1)!.body.messages!;
    expect(messages.slice(-2)).toMatchObject([
      { role: "assistant", tool_calls: [{ id: "call_add", function: { name: "add" } }] },
      { role: "tool", tool_call_id: "call_add", content: "3" },
    ]);
    expect(JSON.stringify(messages)).not.toContain("mcpr_");
  });

  it("a denied call never reaches the server and the model is told (continued by conversation)", async () => {
    g.upstream.script(
      { output: [{ toolCall: { name: "slow", arguments: '{"ms":1}', id: "call_slow" } }] },
      { output: [{ text: "Understood, I will not." }] },
    );
    const asked = await g.openai.responses.create({
      model: "stand-in-1",
      input: "sleep",
      tools: tools({ never: { tool_names: ["add"] } }),
      store: true,
    });
    const request = asked.output.find((item) => item.type === "mcp_approval_request")!;
    const dialog = await prisma.response.findUniqueOrThrow({ where: { id: asked.id }, select: { dialogId: true } });
    const denied = await g.openai.responses.create({
      model: "stand-in-1",
      conversation: dialog.dialogId,
      tools: tools({ never: { tool_names: ["add"] } }),
      input: [{ type: "mcp_approval_response", approval_request_id: request.id, approve: false, reason: "not now" }],
    });
    expect(denied.output.map((item) => item.type)).toEqual(["message"]);
    const inputItems = await g.openai.responses.inputItems.list(denied.id);
    expect(inputItems.data).toMatchObject([
      { type: "mcp_approval_response", approval_request_id: request.id, approve: false, reason: "not now" },
    ]);
    expect(await toolsCalled(server.url)).not.toContain("slow");
    const last = g.upstream.requests.at(-1)!.body.messages!.at(-1);
    expect(last).toMatchObject({ role: "tool", tool_call_id: "call_slow" });
    expect(String((last as { content: string }).content)).toContain("denied");
    const results = await prisma.event.findMany({ where: { responseId: denied.id, type: "TOOL_RESULT" } });
    expect(results.map((event) => [event.phase, event.isError])).toEqual([
      ["INPUT", true],
      ["OUTPUT", true],
    ]);
  });

  it("per tool name: `never` tools run at once, others ask", async () => {
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":2,"b":2}' } }] },
      { output: [{ toolCall: { name: "fail", arguments: '{"why":"x"}' } }] },
    );
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "go",
      tools: tools({ never: { tool_names: ["add"] } }),
    });
    expect(response.output.map((item) => item.type)).toEqual(["mcp_list_tools", "mcp_call", "mcp_approval_request"]);
  });

  it("an answer to an approval request that is not in the chain is a 400", async () => {
    const first = await g.openai.responses.create({ model: "stand-in-1", input: "hi" });
    const refused = await g.openai.responses
      .create({
        model: "stand-in-1",
        previous_response_id: first.id,
        tools: tools(),
        input: [{ type: "mcp_approval_response", approval_request_id: "mcpr_nope", approve: true }],
      })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
  });
});

describe("approvals in GraphQL", () => {
  const finished = (id: string) =>
    until(
      async () => (await prisma.response.findUniqueOrThrow({ where: { id } })).status !== "IN_PROGRESS",
      `response ${id} to finish`,
    );
  const APPROVALS = `query ($id: ID!) { response(id: $id) { toolApprovals { id serverLabel toolName args status answeredBy } } }`;

  it("generateResponse asks, toolApprovals shows it pending, approveToolCall continues the turn", async () => {
    const call = asCaller(g.server, g.key);
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":4,"b":5}', id: "call_gql" } }] },
      { output: [{ text: "9" }] },
    );
    const generated = await call(
      `mutation ($input: GenerateResponseInput!) { generateResponse(input: $input) { ... on Response { id } ... on Error { message } } }`,
      {
        input: {
          model: "stand-in-1",
          input: [{ human: { content: "4+5?" } }],
          mcpTools: [{ serverLabel: "calc", serverUrl: server.url, headers: { authorization: "Bearer gql-secret" } }],
        },
      },
    );
    const asking = (generated.body.data as { generateResponse: { id: string } }).generateResponse.id;
    await finished(asking);
    const pending = await call(APPROVALS, { id: asking });
    const [approval] = (pending.body.data as { response: { toolApprovals: { id: string }[] } }).response.toolApprovals;
    expect(approval).toEqual({
      id: expect.stringMatching(/^mcpr_/),
      serverLabel: "calc",
      toolName: "add",
      args: { a: 4, b: 5 },
      status: "PENDING",
      answeredBy: null,
    });
    const approved = await call(
      `mutation ($input: ApproveToolCallInput!) { approveToolCall(input: $input) { ... on Response { id } ... on Error { message } } }`,
      {
        input: {
          responseId: asking,
          approvalRequestId: approval!.id,
          approve: true,
          headers: { calc: { authorization: "Bearer gql-secret" } },
        },
      },
    );
    const continuing = (approved.body.data as { approveToolCall: { id: string } }).approveToolCall.id;
    await finished(continuing);
    const events = await prisma.event.findMany({ where: { responseId: continuing }, orderBy: { seq: "asc" } });
    expect(events.map((event) => [event.phase, event.type, event.toolName, event.content])).toEqual([
      ["INPUT", "TOOL_RESULT", "add", "approved"],
      ["OUTPUT", "TOOL_CALL", "add", null],
      ["OUTPUT", "TOOL_RESULT", "add", "9"],
      ["OUTPUT", "AI", null, "9"],
    ]);
    const answered = await call(APPROVALS, { id: asking });
    expect(answered.body.data).toMatchObject({
      response: { toolApprovals: [{ status: "APPROVED", answeredBy: continuing }] },
    });
    // Answering twice is refused; the headers were never stored.
    const again = await call(
      `mutation ($input: ApproveToolCallInput!) { approveToolCall(input: $input) { __typename ... on Error { message } } }`,
      { input: { responseId: asking, approvalRequestId: approval!.id, approve: false } },
    );
    expect(again.body.data).toMatchObject({ approveToolCall: { __typename: "ValidationError" } });
    const stored = await prisma.response.findMany({ where: { id: { in: [asking, continuing] } } });
    expect(JSON.stringify(stored)).not.toContain("gql-secret");
  });
});
