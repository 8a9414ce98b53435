// A model step calls the provider's model itself (src/generation/provider-stream.ts) rather than
// through streamText: what streamText did around the call is kept. The call is retried on an
// upstream error the AI SDK calls retryable, as often as UPSTREAM_MAX_RETRIES says, after the
// upstream's `retry-after-ms`; the turn fails with the last error's status when retries run out;
// a refusal is not retried. A tool call naming a tool the request does not offer, or whose
// arguments are not JSON, comes back to the client as it is, its item done once.
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer } from "./support/generating-server.js";

const busy = (status: number) => ({ output: [], httpError: { status, message: "try later", retryAfterMs: 1 } });

describe("a model call made on the provider's model", () => {
  it("retries a 429 or a 500 as the AI SDK does, and fails with the last error when retries run out", async () => {
    const g = await startGeneratingServer({ UPSTREAM_MAX_RETRIES: 2 });
    g.upstream.script(busy(429), busy(500), { output: [{ text: "Third time lucky." }] });
    const answer = await g.openai.responses.create({ model: "stand-in-1", input: "hi" });
    expect(answer).toMatchObject({ status: "completed", output_text: "Third time lucky." });
    expect(g.upstream.requests).toHaveLength(3);

    g.upstream.script(busy(500), busy(500), busy(429), { output: [{ text: "never asked for" }] });
    const error = await g.openai.responses.create({ model: "stand-in-1", input: "hi" }).catch((e) => e);
    expect(error).toMatchObject({ status: 502, code: "upstream_error" });
    expect(g.upstream.requests).toHaveLength(6);
    const id = /resp_[0-9A-Z]+/.exec(error.message)![0];
    const row = await prisma.response.findUniqueOrThrow({ where: { id }, select: { status: true, error: true } });
    expect(row).toEqual({
      status: "FAILED",
      error: {
        code: "upstream_error",
        message: "The model provider is limiting requests (HTTP 429); try again later.",
      },
    });
    g.upstream.script({ output: [], httpError: { status: 400, message: "bad request" } });
    await g.openai.responses.create({ model: "stand-in-1", input: "hi" }).catch((e) => e);
    expect(g.upstream.requests).toHaveLength(7);
  });

  it("a call of a tool not offered, or with arguments that are not JSON, comes back as it is, done once", async () => {
    const g = await startGeneratingServer();
    const tools = [{ type: "function" as const, name: "weather", parameters: { type: "object" }, strict: false }];
    for (const call of [
      { name: "not_offered", arguments: '{"a": 1}' },
      { name: "weather", arguments: "{oops" },
    ]) {
      g.upstream.script({ output: [{ text: "Let me look." }, { toolCall: call }] });
      const events: ResponseStreamEvent[] = [];
      const stream = await g.openai.responses.create({ model: "stand-in-1", input: "hi", tools, stream: true });
      for await (const event of stream) events.push(event);
      const done = events.filter((event) => event.type === "response.output_item.done");
      expect(done.map((event) => event.item.type)).toEqual(["message", "function_call"]);
      expect(done[1]!.item).toMatchObject({ type: "function_call", name: call.name, arguments: call.arguments });
      expect(events.at(-1)).toMatchObject({ type: "response.completed", response: { status: "completed" } });
    }
  });
});
