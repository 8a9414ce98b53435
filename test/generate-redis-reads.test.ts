// The open text a generated turn reads back from Redis (src/live/in-flight-store.ts `get`, the read
// that commits it): only where there is some. The model loop is its response's one writer, so a
// step that typed nothing (an MCP listing, the model's call, the call's result) looks for no open
// text before its write, and the answer is read once, by the end that commits it. Counted on the
// client's commands to a real Redis.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { startTestMcpServer } from "./support/mcp-servers.js";

/** The in-flight store's read of a whole open text (GET_SCRIPT). */
const READS_WHOLE_TEXT = "redis.call('GET', KEYS[2])";

let textReads = 0;
type Command = { name: string; args?: unknown[] };
const prototype = Redis.prototype as unknown as { sendCommand(command: Command): unknown };
const send = prototype.sendCommand;
beforeAll(() => {
  prototype.sendCommand = function (this: Redis, command: Command) {
    if (command.name === "eval" && String(command.args?.[0]).includes(READS_WHOLE_TEXT)) textReads++;
    return send.call(this, command);
  };
});
afterAll(() => {
  prototype.sendCommand = send;
});

describe.runIf(process.env.TEST_REDIS_URL)("open text read back per generated turn (Redis)", () => {
  let g: GeneratingServer;
  beforeAll(async () => {
    g = await startGeneratingServer();
  });

  it("reads the answer once, at the end that commits it", async () => {
    g.upstream.script({ output: [{ text: "A short answer." }] });
    const before = textReads;
    const response = await g.openai.responses.create({ model: "stand-in-1", input: "Hello" });
    expect(response.output_text).toBe("A short answer.");
    expect(textReads - before).toBe(1);
  });

  it("reads no open text before an MCP turn's listing, call and result", async () => {
    const mcp = await startTestMcpServer();
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":1,"b":2}' } }] },
      { output: [{ text: "3" }] },
    );
    const before = textReads;
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "Add 1 and 2",
      tools: [{ type: "mcp", server_label: "calc", server_url: mcp.url, require_approval: "never" }],
    });
    expect(response.output.map((item) => item.type)).toEqual(["mcp_list_tools", "mcp_call", "message"]);
    expect(textReads - before).toBe(1);
  });
});
