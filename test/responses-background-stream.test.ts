// Background streams: `background: true, stream: true` answers events numbered by position, and
// `GET /v1/responses/{id}?stream=true&starting_after=N` replays from N + 1 and follows live to the
// closing event — on another instance too (through Redis, when the tests have one). Driven by the
// real `openai` SDK; the model is the upstream stand-in, held mid-answer by a gate.
import { describe, expect, it } from "vitest";
import { startGeneratingServer, startOtherInstance } from "./support/generating-server.js";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

type Event = { type: string; sequence_number: number; delta?: string; response?: { id: string; status: string } };

async function collect(stream: AsyncIterable<unknown>) {
  const events: Event[] = [];
  for await (const event of stream) events.push(event as Event);
  return events;
}

const TEXT = "Hello background world, resumed.";

describe("background streams", () => {
  it("resumes after any sequence number, mid-text included, then follows to the end", async () => {
    const g = await startGeneratingServer();
    const held = gate();
    g.upstream.script({ output: [{ text: TEXT }], holdAfterFirstChunk: held.opened, holdAfterChunks: 2 });
    const stream = await g.openai.responses.create({
      model: "stand-in-1",
      input: "Go",
      background: true,
      stream: true,
    });
    const seen: Event[] = [];
    for await (const event of stream) {
      seen.push(event as Event);
      if (event.type === "response.output_text.delta") break; // the client goes away mid-answer
    }
    const id = seen[0]!.response!.id;
    const firstDelta = seen.at(-1)!;
    // Numbered by position: created, in_progress, item added, part added, then one number per
    // character (a delta takes its last character's).
    expect(seen.map((event) => event.sequence_number)).toEqual([0, 1, 2, 3, 4 + 8 - 1]);
    expect(firstDelta.delta).toBe(TEXT.slice(0, 8));

    held.open();
    // Resumed three characters before the end of the first delta: the rest of the text, once.
    const resumed = await collect(
      await g.openai.responses.retrieve(id, { stream: true, starting_after: firstDelta.sequence_number - 3 }),
    );
    const numbers = resumed.map((event) => event.sequence_number);
    expect(numbers[0]).toBeGreaterThan(firstDelta.sequence_number - 3);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    const deltas = resumed.filter((event) => event.type === "response.output_text.delta").map((event) => event.delta);
    expect(deltas.join("")).toBe(TEXT.slice(5));
    expect(resumed.at(-1)).toMatchObject({ type: "response.completed", response: { id, status: "completed" } });

    // From the start, after the end: the same numbers for the same events, the text whole.
    const replay = await collect(await g.openai.responses.retrieve(id, { stream: true }));
    expect(replay.slice(0, seen.length - 1).map((event) => [event.type, event.sequence_number])).toEqual(
      seen.slice(0, -1).map((event) => [event.type, event.sequence_number]),
    );
    expect(replay.filter((event) => event.type === "response.output_text.delta").map((e) => e.delta)).toEqual([TEXT]);
    expect(replay.at(-1)!.sequence_number).toBe(resumed.at(-1)!.sequence_number);
  });

  it("refuses background without store", async () => {
    const g = await startGeneratingServer();
    await expect(
      g.openai.responses.create({ model: "stand-in-1", input: "x", background: true, store: false }),
    ).rejects.toMatchObject({ status: 400, param: "background" });
  });

  it.skipIf(!process.env.TEST_REDIS_URL)("another instance serves the resume and cancels the turn", async () => {
    const g = await startGeneratingServer();
    const { openai: otherClient } = await startOtherInstance(g);
    const held = gate();
    g.upstream.script({ output: [{ text: TEXT }], holdAfterFirstChunk: held.opened, holdAfterChunks: 2 });
    const started = await g.openai.responses.create({ model: "stand-in-1", input: "Go", background: true });
    const following = collect(await otherClient.responses.retrieve(started.id, { stream: true, starting_after: 1 }));
    const cancelled = await otherClient.responses.cancel(started.id);
    held.open();
    expect(cancelled.status).toBe("cancelled");
    const events = await following;
    expect(events[0]!.sequence_number).toBe(2);
    expect(events.at(-1)).toMatchObject({ response: { id: started.id, status: "cancelled" } });
  });
});
