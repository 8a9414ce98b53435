// Streamed turns: the SDK's responses.stream gets the API's events with sequence numbers; a
// graphql-ws subscriber watching the dialog sees the same turn arrive; a client that goes away
// mid-stream does not stop the turn from being stored, and cancel does.
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma, store, testConfig } from "./support/database.js";
import { createModelCatalog } from "../src/generation/providers.js";
import { startServer } from "../src/server/http-server.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { type DeltaData, HISTORY_DELTA, take, subscribe } from "./support/live.js";
import { tenantKey, wsAs } from "./support/tenants.js";
import WebSocket from "ws";
import { responsesSocket, socketTurn } from "./support/responses-socket.js";
import { graphql } from "../src/client/generated/index.js";
import { withField } from "./support/narrow.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
});

const RESPONSE_STATUS = graphql(`
  subscription ResponsesApiStreamResponseUpdatedStatus($responseId: ID!) {
    responseUpdated(responseId: $responseId) {
      status
    }
  }
`);

/** Waits, through a graphql-ws subscription, until the response has a final status. */
async function finalStatus(responseId: string) {
  const updates = subscribe(wsAs(g.server, g.key), RESPONSE_STATUS, { responseId });
  let status = "IN_PROGRESS";
  for await (const update of updates) status = update.data!.responseUpdated.status;
  return status;
}

/** A gate a scripted reply waits at. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The event at `index` of a stream, which must be of `type`. */
function eventOf<T extends ResponseStreamEvent["type"]>(events: ResponseStreamEvent[], index: number, type: T) {
  const event = events[index];
  expect(event?.type).toBe(type);
  return event as Extract<ResponseStreamEvent, { type: T }>;
}

describe("responses.stream", () => {
  it("streams the API's events in order, numbered, ending with response.completed", async () => {
    g.upstream.script({ output: [{ text: "Counting: 1, 2, 3." }], usage: { input: 5, output: 7 } });
    const stream = g.openai.responses.stream({ model: "stand-in-1", input: "Count to 3" });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const final = await stream.finalResponse();

    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const types = [...new Set(events.map((event) => event.type))];
    expect(types).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const deltas = events.filter((event) => event.type === "response.output_text.delta").map((event) => event.delta);
    expect(deltas.join("")).toBe("Counting: 1, 2, 3.");
    expect(deltas.length).toBeGreaterThan(1);
    expect(eventOf(events, 0, "response.created").response).toMatchObject({
      id: final.id,
      status: "in_progress",
      output: [],
    });
    expect(final).toMatchObject({ status: "completed", usage: { input_tokens: 5, output_tokens: 7 } });
    expect(final.output_text).toBe("Counting: 1, 2, 3.");
    // The item id the stream announced is the id a later GET returns.
    expect((await g.openai.responses.retrieve(final.id)).output[0]!.id).toBe(
      eventOf(events, 2, "response.output_item.added").item.id,
    );
  });

  it("streams a function call's arguments", async () => {
    g.upstream.script({ output: [{ toolCall: { id: "call_s1", name: "lookup", arguments: '{"query":"dialogql"}' } }] });
    const stream = g.openai.responses.stream({
      model: "stand-in-1",
      input: "Look it up",
      tools: [{ type: "function", name: "lookup", parameters: { type: "object", properties: {} }, strict: false }],
    });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types).toContain("response.function_call_arguments.delta");
    const done = events.find((event) => event.type === "response.function_call_arguments.done");
    expect(done).toMatchObject({ name: "lookup", arguments: '{"query":"dialogql"}' });
    expect(events.find((event) => event.type === "response.output_item.done")).toMatchObject({
      item: { type: "function_call", call_id: "call_s1" },
    });
  });

  it("a graphql-ws subscriber watching the dialog sees the generated turn", async () => {
    const first = await g.openai.responses.create({ model: "stand-in-1", input: "Hello" });
    const { dialogId } = await prisma.response.findUniqueOrThrow({ where: { id: first.id } });
    const { lastSeq } = await prisma.dialog.findUniqueOrThrow({ where: { id: dialogId } });
    // From the seq seen so far: whatever the subscription's start races with, nothing is missed.
    const deltas = subscribe(wsAs(g.server, g.key), HISTORY_DELTA, { dialogId, afterSeq: lastSeq });

    g.upstream.script({ output: [{ reasoning: "Greet back." }, { text: "Hi again!" }] });
    const second = await g.openai.responses.create({
      model: "stand-in-1",
      input: "Again",
      previous_response_id: first.id,
    });
    const seen: DeltaData["historyDelta"][] = [];
    while (seen.at(-1)?.status !== "COMPLETED") {
      const [{ historyDelta }] = (await take(deltas, 1)) as [DeltaData];
      if (historyDelta.responseId === second.id) seen.push(historyDelta);
    }
    await deltas.return?.();
    expect(
      seen.flatMap((delta) => delta.append.map((event) => [event.__typename, withField(event, "content").content])),
    ).toEqual([
      ["HumanEvent", "Again"],
      ["ReasoningEvent", "Greet back."],
      ["AiEvent", "Hi again!"],
    ]);
    // Deltas are re-read when delivered, so how many the turn's three writes arrive as varies; their seqs follow on.
    expect(seen.map((delta) => delta.seq)).toEqual([...seen.map((delta) => delta.seq)].sort((a, b) => a - b));
  });

  it("a client that disconnects mid-stream does not stop the turn from being stored", async () => {
    const held = gate();
    g.upstream.script({ output: [{ text: "A long answer that keeps going." }], holdAfterFirstChunk: held.opened });
    const stream = g.openai.responses.stream({ model: "stand-in-1", input: "Talk" });
    let responseId = "";
    for await (const event of stream) {
      if (event.type === "response.created") responseId = event.response.id;
      if (event.type === "response.in_progress") break; // and go away
    }
    stream.abort();
    const status = finalStatus(responseId);
    held.open();
    expect(await status).toBe("COMPLETED");
    expect((await g.openai.responses.retrieve(responseId)).output_text).toBe("A long answer that keeps going.");
  });

  it("cancel stops a background turn: it ends cancelled with what it had", async () => {
    const held = gate();
    g.upstream.script({ output: [{ text: "Never finished" }], holdAfterFirstChunk: held.opened });
    const started = await g.openai.responses.create({ model: "stand-in-1", input: "Go", background: true });
    expect(started).toMatchObject({ status: "in_progress", background: true, output: [] });
    const cancelled = await g.openai.responses.cancel(started.id);
    held.open();
    expect(cancelled.status).toBe("cancelled");
    expect(await finalStatus(started.id)).toBe("CANCELLED");
  });
});

describe("providers", () => {
  it("without any provider configured, answers a clear error naming the settings; the rest still works", async () => {
    const server = await startServer({
      store,
      config: testConfig,
      port: 0,
      models: createModelCatalog({ UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0 }),
    });
    try {
      const { key } = await tenantKey("tenant-none");
      const response = await fetch(`${server.url}/v1/responses`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", input: "hi" }),
      });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { message: string; param?: string; code?: string } };
      expect(error).toMatchObject({ param: "model", code: "model_not_configured", type: "invalid_request_error" });
      expect(error.message).toMatch(/OPENAI_API_KEY.*OPENAI_BASE_URL.*ANTHROPIC_API_KEY.*MODEL_PROVIDERS/);
      const graphql = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
      expect(await graphql.json()).toEqual({ data: { __typename: "Query" } });
    } finally {
      await server.close();
    }
  });

  it("UPSTREAM_API=responses calls the upstream's Responses API", async () => {
    const viaResponses = await startGeneratingServer({ UPSTREAM_API: "responses" }, "tenant-r");
    viaResponses.upstream.script({ output: [{ reasoning: "Think." }, { text: "Through /responses." }] });
    const response = await viaResponses.openai.responses.create({ model: "stand-in-1", input: "hi" });
    expect(viaResponses.upstream.requests.at(-1)!.path).toBe("/responses");
    expect(response.output_text).toBe("Through /responses.");
    expect(response.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
  });

  it("MODEL_PROVIDERS maps model names to providers", async () => {
    const models = createModelCatalog({
      OPENAI_BASE_URL: "http://127.0.0.1:1/v1",
      UPSTREAM_API: "chat",
      UPSTREAM_MAX_RETRIES: 0,
      MODEL_PROVIDERS: "llama-*=openai",
    });
    expect(() => models.resolve("llama-3")).not.toThrow();
    expect(() => models.resolve("claude-sonnet-4-5")).toThrow(/no MODEL_PROVIDERS rule matches/);
    expect(() =>
      createModelCatalog({ UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0, MODEL_PROVIDERS: "x=nobody" }),
    ).toThrow(/MODEL_PROVIDERS/);
  });
});

describe("WebSocket mode", () => {
  it("runs turns sent as response.create messages on one socket, with the streaming events", async () => {
    const socket = await responsesSocket(g.server, g.key);
    g.upstream.script({ output: [{ text: "First over the socket." }] }, { output: [{ text: "Second, continued." }] });
    const first = await socketTurn(socket, { model: "stand-in-1", input: "one" });
    expect(first.map((event) => event.sequence_number)).toEqual(first.map((_, index) => index));
    expect(first.at(-1)).toMatchObject({ type: "response.completed", response: { status: "completed" } });
    const id = first.at(-1)!.response.id;

    const second = await socketTurn(socket, { model: "stand-in-1", input: "two", previous_response_id: id });
    expect(second.at(-1)!.response).toMatchObject({ previous_response_id: id, status: "completed" });
    expect(g.upstream.requests.at(-1)!.body.messages!.map((m) => m.content)).toEqual([
      "one",
      "First over the socket.",
      "two",
    ]);

    const refused = await socketTurn(socket, { model: "stand-in-1", input: "x", previous_response_id: "resp_NOPE" });
    expect(refused).toEqual([
      {
        type: "error",
        error: expect.objectContaining({ code: "previous_response_not_found", param: "previous_response_id" }),
      },
    ]);
    socket.close();
  });

  it("refuses an upgrade without a valid key", async () => {
    const socket = new WebSocket(`${g.server.url.replace(/^http/, "ws")}/v1/responses`);
    const status = await new Promise((resolve) =>
      socket.once("unexpected-response", (_req, res) => resolve(res.statusCode)),
    );
    expect(status).toBe(401);
  });
});
