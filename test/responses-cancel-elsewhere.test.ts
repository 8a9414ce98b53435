// Issue 29, finding 10: a cancel that lands on another instance than the one generating the turn
// ends it like a local cancel — the upstream call is stopped, and the text the generating instance
// had typed is kept as the partial answer — whether the generating instance hears the cancel, or
// does not answer in time and the receiving instance closes the turn itself. Two instances share
// the database and Redis; the real `openai` SDK is the client, a stand-in upstream the model, held
// mid-answer by a gate.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createModelCatalog } from "../src/generation/providers.js";
import { startServer } from "../src/server/http-server.js";
import { store, testConfig } from "./support/database.js";
import { startGeneratingServer, startOtherInstance } from "./support/generating-server.js";
import { until } from "./support/until.js";
import { scriptHeldText } from "./support/upstream-stand-in.js";

const TEXT = "The partial answer, typed before the cancel, and the rest that never comes.";

describe.skipIf(!process.env.TEST_REDIS_URL)("cancel through another instance", () => {
  it("stops the upstream call and keeps the text typed so far", async () => {
    const g = await startGeneratingServer();
    const { openai: otherClient } = await startOtherInstance(g);
    const held = scriptHeldText(g.upstream, TEXT);
    const started = await g.openai.responses.create({ model: "stand-in-1", input: "Go", background: true });
    await until(async () => (await g.server.writes.textOf(started.id))?.text === held.typed, "the text typed");
    const upstreamCall = g.upstream.requests.at(-1)!;

    const cancelled = await otherClient.responses.cancel(started.id);
    // The generating instance stopped its upstream call (the gate is still shut: nothing else ends it).
    await upstreamCall.closed;
    held.open();

    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.output).toEqual([
      expect.objectContaining({
        type: "message",
        content: [expect.objectContaining({ text: held.typed })],
      }),
    ]);
    const stored = await g.openai.responses.retrieve(started.id);
    expect(stored).toMatchObject({ status: "cancelled", output_text: held.typed });
  });
});

// Issue 29: "an instance cut off from Redis never hears a cancel". The generating instance has no
// Redis (here: none at all, nor has the other), so the other instance closes the turn itself,
// CANCELLED with the text checkpointed so far. The generating instance learns it from the
// database at its next checkpoint (or step) and stops as a local cancel does: its upstream call is
// closed, the end it would have written is the canceller's. Before, it went on calling the model
// to the end of the answer (here: for ever, the stand-in holding its last chunks).
describe("cancel through another instance that the generating one cannot hear", () => {
  it("stops the turn at its next checkpoint; the text typed before the cancel is kept", async () => {
    const g = await startGeneratingServer({}, "tenant-a", { redisUrl: null, inFlight: { checkpointMs: 0 } });
    const other = await startServer({
      store,
      config: testConfig,
      port: 0,
      redisUrl: null,
      models: createModelCatalog({ UPSTREAM_API: "chat", UPSTREAM_MAX_RETRIES: 0 }),
    });
    try {
      const otherClient = new OpenAI({ baseURL: `${other.url}/v1`, apiKey: g.key, maxRetries: 0 });
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      // The role chunk and two of eight characters, the gate, two more chunks, then a gate that
      // never opens: only a stopped turn closes this request.
      g.upstream.script({
        output: [{ text: TEXT }],
        chunkChars: 8,
        holdAfterFirstChunk: opened,
        holdAfterChunks: 3,
        holdAgain: { afterChunks: 5, until: new Promise(() => {}) },
      });
      const typed = TEXT.slice(0, 16);
      const started = await g.openai.responses.create({ model: "stand-in-1", input: "Go", background: true });
      await until(async () => (await g.server.writes.textOf(started.id))?.text === typed, "the text typed");
      const upstreamCall = g.upstream.requests.at(-1)!;

      const cancelled = await otherClient.responses.cancel(started.id);
      expect(cancelled.status).toBe("cancelled");
      open();
      // The next text delta's checkpoint finds the response CANCELLED: the turn stops.
      await upstreamCall.closed;

      const stored = await g.openai.responses.retrieve(started.id);
      expect(stored).toMatchObject({ status: "cancelled", output_text: typed });
    } finally {
      await other.close();
    }
  });
});
