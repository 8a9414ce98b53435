// In-flight checkpoints cost their new text (issue 29, finding 9): each one sends the database
// the characters typed since the one before, not the text so far, and a restarted instance still
// reads the text exactly as checkpointed. The pieces go when the text is committed or dropped, with
// the response's final status (whoever writes it), and with the dialog however it is removed.
import { afterAll, describe, expect, it } from "vitest";
import { DEVELOPMENT_TENANT } from "../src/auth/authenticator.js";
import { createHistoryWrites } from "../src/history-writes/history-writes.js";
import { headOf } from "../src/live/in-flight-store.js";
import { createLiveBus } from "../src/live/live-bus.js";
import { readResponseForText, saveCheckpoint } from "../src/services/in-flight-checkpoints.js";
import { completeResponse } from "../src/services/response-lifecycle.js";
import type { InFlightState } from "../src/vocabulary/in-flight.js";
import { checkpointingEvery } from "./support/checkpoint-options.js";
import { prisma, store } from "./support/database.js";
import { countStatements } from "./support/query-counter.js";

const CHECKPOINT_CHARS = 2_000;
/** What a checkpointing delta may send besides its new text: its statements and the other parameters. */
const STATEMENT_BYTES = 2_048;

const instances: ReturnType<typeof createHistoryWrites>[] = [];
/** An instance without Redis: a new one is what a restarted server holds (nothing but the database). */
function instance(checkpointChars = CHECKPOINT_CHARS) {
  const writes = createHistoryWrites(store, createLiveBus(), checkpointingEvery(checkpointChars));
  instances.push(writes);
  return writes;
}
afterAll(() => instances.forEach((writes) => writes.close()));

async function startTurn(writes = instance()) {
  const turn = await writes.createResponse(
    { input: [{ human: { content: "Tell me a long story" } }] },
    DEVELOPMENT_TENANT,
  );
  return { responseId: turn.responseId, dialogId: turn.dialogId };
}

/** All of a text, as a checkpoint that read it from its start has it. */
const whole = (state: InFlightState) => ({ head: headOf(state), from: 0, text: state.text });
const piecesOf = (responseId: string) => prisma.inFlightChunk.count({ where: { responseId } });
const checkpointed = async (responseId: string) => (await instance().textOf(responseId))?.text;

describe("in-flight checkpoints", () => {
  it("send only the text typed since the checkpoint before, up to a 100 KB answer", async () => {
    const writes = instance();
    const { responseId } = await startTurn(writes);
    const delta = (i: number) => `${String(i).padStart(4, "0")} ${"lorem ipsum ".repeat(42)}`.slice(0, 500);
    let text = "";
    let sinceCheckpoint = 0;
    const checkpoints: { newChars: number; bytes: number; length: number }[] = [];
    for (let i = 0; text.length < 100_000; i++) {
      const { bytes } = await countStatements(() =>
        writes.streamText({ responseId, type: "AI", delta: delta(i), offset: text.length }),
      );
      text += delta(i);
      sinceCheckpoint += delta(i).length;
      const sent = bytes.reduce((a, b) => a + b, 0);
      if (i === 0 || sinceCheckpoint >= CHECKPOINT_CHARS) {
        checkpoints.push({ newChars: sinceCheckpoint, bytes: sent, length: text.length });
        sinceCheckpoint = 0;
      } else {
        expect(sent, `delta ${i} (no checkpoint due)`).toBe(0);
      }
    }
    expect(checkpoints.length).toBe(50);
    for (const checkpoint of checkpoints) {
      expect(checkpoint.bytes, `checkpoint at ${checkpoint.length} characters`).toBeLessThanOrEqual(
        checkpoint.newChars + STATEMENT_BYTES,
      );
    }
    // The last checkpoint (at 100,000 characters) sent about what the first one did.
    expect(checkpoints.at(-1)!.bytes).toBeLessThan(checkpoints[1]!.bytes + 200);
    // A restarted instance has the text up to the last checkpoint, exactly.
    expect(await checkpointed(responseId)).toBe(text.slice(0, checkpoints.at(-1)!.length));
    expect(await piecesOf(responseId)).toBe(50);

    await writes.commitText(responseId);
    expect(await piecesOf(responseId)).toBe(0);
    const [event] = await prisma.event.findMany({ where: { responseId, type: "AI" } });
    expect(event!.content).toBe(text);
  });

  it("never cut a surrogate pair: a character split across deltas is read back whole", async () => {
    const writes = instance(1);
    const { responseId } = await startTurn(writes);
    await writes.streamText({ responseId, type: "AI", delta: "ab\uD83D", offset: 0 });
    expect(await checkpointed(responseId)).toBe("ab");
    await writes.streamText({ responseId, type: "AI", delta: "\uDE00c", offset: 3 });
    expect(await checkpointed(responseId)).toBe("ab😀c");
    // Taken up after a restart, the text goes on from the checkpoint.
    const restarted = instance(1);
    const position = await restarted.streamText({ responseId, type: "AI", delta: "𝄞d", offset: 5 });
    expect(position.length).toBe(8);
    expect(await checkpointed(responseId)).toBe("ab😀c𝄞d");
  });

  it("end where the stored text ends, whatever the writer believed (another instance wrote meanwhile)", async () => {
    const writes = instance();
    const { responseId } = await startTurn(writes);
    await writes.streamText({ responseId, type: "AI", delta: "0123456789", offset: 0 });
    const state = (await writes.textOf(responseId))!;
    const longer = { ...state, text: `${state.text}abcdef` };
    // Believing nothing is stored, or less than is, or not knowing: the text is stored once, in order.
    expect(await saveCheckpoint(store, whole(longer), 0)).toBe(16);
    expect(await saveCheckpoint(store, whole({ ...longer, text: `${longer.text}gh` }), 4)).toBe(18);
    expect(await saveCheckpoint(store, whole({ ...longer, text: `${longer.text}ghij` }), undefined)).toBe(20);
    expect((await readResponseForText(store, responseId))!.checkpoint!.text).toBe("0123456789abcdefghij");
    // A shorter text than is stored adds nothing.
    expect(await saveCheckpoint(store, whole(state), 10)).toBe(20);
    expect(await piecesOf(responseId)).toBe(4);
  });

  it("go with the final status, whoever writes it, and with the text when it is dropped or kept", async () => {
    const writes = instance(1);
    const turn = async () => {
      const { responseId } = await startTurn(writes);
      await writes.streamText({ responseId, type: "AI", delta: "partial answer", offset: 0 });
      expect(await piecesOf(responseId)).toBe(1);
      return responseId;
    };
    // Ended by a process that never held the text (a sweeper, another instance).
    const orphan = await turn();
    await completeResponse(store, { responseId: orphan, status: "FAILED" });
    expect(await piecesOf(orphan)).toBe(0);

    const kept = await turn();
    await writes.interruptResponse({ responseId: kept, behavior: "SAVE_PARTIAL" });
    expect(await piecesOf(kept)).toBe(0);
    const dropped = await turn();
    await writes.interruptResponse({ responseId: dropped, behavior: "DISCARD" });
    expect(await piecesOf(dropped)).toBe(0);
    const cancelled = await turn();
    await writes.cancelResponse(cancelled);
    expect(await piecesOf(cancelled)).toBe(0);
    const completed = await turn();
    await writes.completeResponse({ responseId: completed });
    expect(await piecesOf(completed)).toBe(0);
  });

  it("go with the dialog: clearDialog, deleteDialog, deleteResponse and retention", async () => {
    const writes = instance(1);
    const streaming = async () => {
      const { responseId, dialogId } = await startTurn(writes);
      await writes.streamText({ responseId, type: "REASONING", delta: "thinking", offset: 0 });
      expect(await piecesOf(responseId)).toBe(1);
      return { responseId, dialogId };
    };
    const cleared = await streaming();
    await writes.clearDialog(cleared.dialogId);
    expect(await piecesOf(cleared.responseId)).toBe(0);
    const deleted = await streaming();
    await writes.deleteDialog(deleted.dialogId);
    expect(await piecesOf(deleted.responseId)).toBe(0);
    const deletedResponse = await streaming();
    await writes.deleteResponse(deletedResponse.responseId, deletedResponse.dialogId);
    expect(await piecesOf(deletedResponse.responseId)).toBe(0);
    const expired = await streaming();
    const swept = await writes.sweepExpired({ now: new Date(Date.now() + 3_600_000), retention: 1_000 });
    expect(swept.deletedDialogIds).toContain(expired.dialogId);
    expect(await piecesOf(expired.responseId)).toBe(0);
  });
});
