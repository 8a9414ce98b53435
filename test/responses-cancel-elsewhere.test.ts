// Issue 29, finding 10: a cancel that lands on another instance than the one generating the turn
// ends it like a local cancel — the upstream call is stopped, and the text the generating instance
// had typed is kept as the partial answer — whether the generating instance hears the cancel, or
// does not answer in time and the receiving instance closes the turn itself. Two instances share
// the database and Redis; the real `openai` SDK is the client, a stand-in upstream the model, held
// mid-answer by a gate.
import { describe, expect, it } from "vitest";
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
