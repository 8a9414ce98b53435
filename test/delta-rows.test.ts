// A committed write's delta rows (WriteResult.delta): the opening write, a step's commit and a
// turn's end return their events and response row, and publishing the delta reads nothing back
// (src/live/delta-carriage.ts). They must be exactly what reading the delta back would show.
import { describe, expect, it } from "vitest";
import { readDelta } from "../src/live/delta-reads.js";
import { appendEvents, completeResponse } from "../src/services/response-lifecycle.js";
import { createResponse, type WriteResult } from "../src/services/responses.js";
import { store } from "./support/database.js";

/** What a read of the write's delta finds now (the shared reads are keyed by payload: a new key each time). */
async function readBack(write: WriteResult) {
  const { dialogId, responseId, previousSeq, seq, status } = write;
  const { events, response } = await readDelta(store, { dialogId, responseId, previousSeq, seq, status });
  return { events, response };
}

describe("a write's delta rows", () => {
  it("are what a read of the delta shows, for the opening write, a step and the end", async () => {
    const tenantId = "tenant-delta-rows";
    const opened = await createResponse(
      store,
      { input: [{ human: { content: "Hello" } }, { human: { content: "Again" } }], status: "IN_PROGRESS" },
      tenantId,
    );
    expect(opened.delta?.events).toHaveLength(2);
    expect(opened.delta).toEqual(await readBack(opened));

    const step = await appendEvents(
      store,
      { responseId: opened.responseId, events: [{ ai: { content: "Hi" } }] },
      { dialogId: opened.dialogId },
    );
    expect(step.delta?.events.map((event) => event.seq)).toEqual([3]);
    expect(step.delta).toEqual(await readBack(step));

    const end = await completeResponse(store, {
      responseId: opened.responseId,
      usage: { inputTokens: 5, outputTokens: 1 },
      dialogId: opened.dialogId,
    });
    expect(end.delta?.response.status).toBe("COMPLETED");
    expect(end.delta?.events).toEqual([]);
    expect(end.delta).toEqual(await readBack(end));
  });

  it("a dialog given for a response of another dialog is NOT_FOUND, and nothing is written", async () => {
    const tenantId = "tenant-delta-rows";
    const one = await createResponse(
      store,
      { input: [{ human: { content: "One" } }], status: "IN_PROGRESS" },
      tenantId,
    );
    const other = await createResponse(store, { input: [{ human: { content: "Other" } }] }, tenantId);
    await expect(
      appendEvents(
        store,
        { responseId: one.responseId, events: [{ ai: { content: "x" } }] },
        { dialogId: other.dialogId },
      ),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await readBack({ ...one, previousSeq: 0, seq: 5 })).events).toHaveLength(1);
  });
});
