// MCP tools in the Responses API's WebSocket mode, with a real `ws` client: a turn sent as a
// `response.create` message lists the server's tools, runs the model's call and answers, its
// events the same as `stream: true` sends; on the same socket the next turn continues the chain
// (the listing reused), asks for an approval, and a third message's mcp_approval_response runs it.
import { beforeAll, describe, expect, it } from "vitest";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { type McpServerProcess, startTestMcpServer, toolsCalled } from "./support/mcp-servers.js";
import { responsesSocket, type SocketEvent, socketTurn } from "./support/responses-socket.js";

let g: GeneratingServer;
let server: McpServerProcess;
beforeAll(async () => {
  [g, server] = await Promise.all([startGeneratingServer(), startTestMcpServer()]);
});

const tools = (requireApproval: string) => [
  { type: "mcp", server_label: "calc", server_url: server.url, require_approval: requireApproval },
];

/** The items of a turn as they were added or done. */
const itemsOf = (events: SocketEvent[], type: "added" | "done") =>
  events
    .filter((event) => event.type === `response.output_item.${type}`)
    .map((event) => event.item as { type: string; id: string; output?: string });

describe("an MCP tool in WebSocket mode", () => {
  it("runs the call within the turn, and continues the chain on the same socket through an approval", async () => {
    const socket = await responsesSocket(g.server, g.key);
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":20,"b":22}' } }] },
      { output: [{ text: "42" }] },
      { output: [{ toolCall: { name: "add", arguments: '{"a":42,"b":1}', id: "call_more" } }] },
      { output: [{ text: "43" }] },
    );
    const first = await socketTurn(socket, { model: "stand-in-1", input: "20+22?", tools: tools("never") });
    expect(first.map((event) => event.sequence_number)).toEqual(first.map((_, index) => index));
    const mcpEvents = first.filter((event) => event.type.startsWith("response.mcp_")).map((event) => event.type);
    // (The arguments may come in several deltas.)
    expect(mcpEvents.filter((type, at) => type !== mcpEvents[at - 1])).toEqual([
      "response.mcp_list_tools.in_progress",
      "response.mcp_list_tools.completed",
      "response.mcp_call.in_progress",
      "response.mcp_call_arguments.delta",
      "response.mcp_call_arguments.done",
      "response.mcp_call.completed",
    ]);
    expect(itemsOf(first, "done").map((item) => [item.type, item.output ?? null])).toEqual([
      ["mcp_list_tools", null],
      ["mcp_call", "42"],
      ["message", null],
    ]);
    const closing = first.at(-1)!;
    expect(closing).toMatchObject({ type: "response.completed", response: { status: "completed" } });
    // The items the socket announced are the response's.
    const announced = itemsOf(first, "added").map((item) => item.id);
    expect((closing.response.output as { id: string }[]).map((item) => item.id)).toEqual(announced);

    // The next turn on the socket: the chain's listing is reused, the call waits for approval.
    const asked = await socketTurn(socket, {
      model: "stand-in-1",
      input: "and +1?",
      tools: tools("always"),
      previous_response_id: closing.response.id,
    });
    expect(itemsOf(asked, "done").map((item) => item.type)).toEqual(["mcp_approval_request"]);
    expect(asked.at(-1)!.response.status).toBe("completed");
    expect(await toolsCalled(server.url)).toEqual(["add"]);

    const request = itemsOf(asked, "done")[0]!;
    const approved = await socketTurn(socket, {
      model: "stand-in-1",
      tools: tools("always"),
      previous_response_id: asked.at(-1)!.response.id,
      input: [{ type: "mcp_approval_response", approval_request_id: request.id, approve: true }],
    });
    expect(itemsOf(approved, "done").map((item) => [item.type, item.output ?? null])).toEqual([
      ["mcp_call", "43"],
      ["message", null],
    ]);
    expect(approved.at(-1)).toMatchObject({
      type: "response.completed",
      response: { output: [{ approval_request_id: request.id }, { content: [{ text: "43" }] }] },
    });
    expect(await toolsCalled(server.url)).toEqual(["add", "add"]);
    socket.close();
  });
});
