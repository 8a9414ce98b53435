// A turn generated through /v1/responses is token-level live history like an agent's own: a
// historyDelta subscriber sees the reasoning and the answer as the model types them, then the
// committed events replace the typed text — each character once, nothing doubled in the history.
import { beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "./support/database.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { wsAs } from "./support/tenants.js";
import { TextSubscriber, iterateTextDeltas } from "./support/text-stream.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
});

/** A response's fields (`fields`, GraphQL) as `at`'s tenant reads them. */
async function responseOf<T>(responseId: string, fields: string, at = g): Promise<T> {
  const response = await fetch(`${at.server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${at.key}` },
    body: JSON.stringify({
      query: `query ($id: ID!) { response(id: $id) { ${fields} } }`,
      variables: { id: responseId },
    }),
  });
  const { data } = (await response.json()) as { data: { response: T } };
  return data.response;
}

const dialogOf = async (responseId: string) =>
  (await responseOf<{ dialog: { id: string; lastSeq: number } }>(responseId, "dialog { id lastSeq }")).dialog;

const outputOf = (responseId: string, at = g) =>
  responseOf<{ status: string; output: { __typename: string; content?: string }[] }>(
    responseId,
    "status output { __typename ... on AiEvent { content } }",
    at,
  );

describe("a generated turn as in-flight text", () => {
  it("streams reasoning and answer to subscribers as typed, then commits each as one event", async () => {
    const first = await g.openai.responses.create({ model: "stand-in-1", input: "Hello" });
    const dialog = await dialogOf(first.id);

    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const reasoning = "Thinking it over.";
    const answer = "Once upon a time, a model typed slowly.";
    // The role chunk, the reasoning's three chunks and the answer's first two, then the gate.
    g.upstream.script({ output: [{ reasoning }, { text: answer }], holdAfterFirstChunk: gate, holdAfterChunks: 6 });
    const watcher = new TextSubscriber(iterateTextDeltas(wsAs(g.server, g.key)), {
      dialogId: dialog.id,
      afterSeq: dialog.lastSeq,
    });

    const stream = g.openai.responses.stream({ model: "stand-in-1", previous_response_id: first.id, input: "A story" });
    const finished = stream.finalResponse();
    // The reasoning's commit and the answer's first text travel apart (a committed delta may wait
    // for its seq order, a text delta does not): the gated state is both.
    await watcher.until(
      (w) =>
        w.events.some((event) => event.__typename === "ReasoningEvent") &&
        Object.values(w.inFlight).some((text) => text.type === "AI" && text.text.length === 16),
    );
    // While the model waits, the reasoning is already committed and the answer is in flight.
    expect(watcher.events.map((event) => [event.__typename, event.content])).toEqual([
      ["HumanEvent", "A story"],
      ["ReasoningEvent", reasoning],
    ]);
    expect(Object.values(watcher.inFlight).map((text) => text.text)).toEqual([answer.slice(0, 16)]);

    open();
    const final = await finished;
    expect(final.output_text).toBe(answer);
    await watcher.until((w) => w.events.some((event) => event.__typename === "AiEvent"));
    expect(watcher.events.map((event) => [event.__typename, event.content])).toEqual([
      ["HumanEvent", "A story"],
      ["ReasoningEvent", reasoning],
      ["AiEvent", answer],
    ]);
    expect(watcher.inFlight).toEqual({});
    expect(watcher.duplicates).toBe(0);
    expect(watcher.gaps).toBe(0);
    const typed = watcher.deltas.filter((delta) => delta.text?.type === "AI").map((delta) => delta.text!.delta);
    expect(typed.join("")).toBe(answer);
    // The stored turn holds each step once: GET answers what the stream did.
    const stored = await g.openai.responses.retrieve(final.id);
    expect(stored.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
    expect(stored.output_text).toBe(answer);
    watcher.close();
  });

  it("commits an answer with the turn's end: one write, one delta with its event and the status", async () => {
    const first = await g.openai.responses.create({ model: "stand-in-1", input: "Hello" });
    const dialog = await dialogOf(first.id);
    const answer = "A plain answer, typed.";
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The role chunk and the answer's first, then the gate: the watcher follows the turn live.
    g.upstream.script({ output: [{ text: answer }], holdAfterFirstChunk: gate, holdAfterChunks: 2 });
    const watcher = new TextSubscriber(iterateTextDeltas(wsAs(g.server, g.key)), {
      dialogId: dialog.id,
      afterSeq: dialog.lastSeq,
    });
    const created = g.openai.responses.create({ model: "stand-in-1", previous_response_id: first.id, input: "Answer" });
    await watcher.until((w) => Object.values(w.inFlight).some((text) => text.text.length > 0));
    open();
    const turn = await created;
    await watcher.until((w) => w.deltas.some((delta) => delta.responseId === turn.id && delta.status === "COMPLETED"));
    const committed = watcher.deltas.filter((delta) => !delta.text && delta.responseId === turn.id);
    expect(
      committed.map((delta) => [
        delta.append.map((event) => ("content" in event ? event.content : null)),
        delta.status,
      ]),
    ).toEqual([
      [["Answer"], "IN_PROGRESS"],
      [[answer], "COMPLETED"],
    ]);
    expect(watcher.inFlight).toEqual({});
    watcher.close();
  });

  it("ends a turn whose answer is larger than an event may be, with the part of it that fits", async () => {
    // Deltas past MAX_EVENT_BYTES are refused as typed; the end must not then write the whole
    // answer (refused too, which left the turn IN_PROGRESS).
    const answer = "x".repeat(testConfig.MAX_EVENT_BYTES + 4096);
    g.upstream.script({ output: [{ text: answer }], chunkChars: 64 * 1024 });
    const turn = await g.openai.responses.create({ model: "stand-in-1", input: "A long one" });
    const stored = await outputOf(turn.id);
    expect(stored.status).toBe("COMPLETED");
    const [ai] = stored.output;
    expect(ai!.__typename).toBe("AiEvent");
    expect(ai!.content!.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(JSON.stringify({ content: ai!.content }))).toBeLessThanOrEqual(testConfig.MAX_EVENT_BYTES);
    expect(answer.startsWith(ai!.content!)).toBe(true);
  });

  it("stores no answer event for an empty answer, as for an empty open text", async () => {
    // Over the Responses wire an answer's item opens before its (here empty) text: the turn ends
    // with an empty answer, which is no event (an empty open text commits none either).
    const responsesWire = await startGeneratingServer({ UPSTREAM_API: "responses" });
    responsesWire.upstream.script({ output: [{ text: "" }] });
    const turn = await responsesWire.openai.responses.create({ model: "stand-in-1", input: "Say nothing" });
    expect(await outputOf(turn.id, responsesWire)).toEqual({ status: "COMPLETED", output: [] });
  });
});
