// Sequence numbers are handed out under the dialog's row lock: concurrent writers to one dialog
// never produce a duplicate or a gap.
import { describe, expect, it } from "vitest";
import { prisma } from "../src/db/prisma.js";
import { newResponseId } from "../src/ids.js";
import { insertTurn } from "../src/services/write-turn.js";
import { createResponse, turn } from "./support/dialogs.js";

describe("concurrent writers on one dialog", () => {
  it("20 concurrent createResponse calls produce seqs 1..N with no gap and no duplicate", async () => {
    const dialog = await turn({ input: [{ human: { content: "start" } }] });
    const writers = Array.from({ length: 20 }, (_, i) =>
      createResponse({
        dialogId: dialog.dialogId,
        input: [{ human: { content: `question ${i}` } }],
        // Different sizes, so a wrong offset would show up as a gap or an overlap.
        output: Array.from({ length: (i % 3) + 1 }, (_, j) => ({ ai: { content: `answer ${i}.${j}` } })),
      }),
    );
    const results = await Promise.all(writers);
    expect(results.every((r) => r.__typename === "Response")).toBe(true);

    const events = await prisma.event.findMany({ where: { dialogId: dialog.dialogId }, orderBy: { seq: "asc" } });
    const expectedCount =
      1 + results.length + Array.from({ length: 20 }, (_, i) => (i % 3) + 1).reduce((a, b) => a + b);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: expectedCount }, (_, i) => i + 1));
    const stored = await prisma.dialog.findUniqueOrThrow({ where: { id: dialog.dialogId } });
    expect(stored.lastSeq).toBe(expectedCount);

    // Each writer continued from the head it found under the lock: one linear chain, no forks.
    const responses = await prisma.response.findMany({
      where: { dialogId: dialog.dialogId },
      orderBy: { depth: "asc" },
    });
    expect(responses.map((r) => r.depth)).toEqual(Array.from({ length: 21 }, (_, i) => i));
    expect(stored.headId).toBe(responses.at(-1)!.id);
    // Within each response the seqs are contiguous: input first, then output, as written.
    for (const response of responses) {
      const own = events.filter((e) => e.responseId === response.id).map((e) => e.seq);
      expect(own).toEqual(Array.from({ length: own.length }, (_, i) => own[0]! + i));
    }
  });

  it("concurrent branches from one response all chain to it and share the dialog's seq counter", async () => {
    const root = await turn({ input: [{ human: { content: "root" } }] });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        createResponse({ previousResponseId: root.id, input: [{ human: { content: `branch ${i}` } }] }),
      ),
    );
    expect(results.map((r) => r.previousResponse?.id)).toEqual(Array(10).fill(root.id));
    const seqs = (await prisma.event.findMany({ where: { dialogId: root.dialogId }, orderBy: { seq: "asc" } })).map(
      (e) => e.seq,
    );
    expect(seqs).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  });
});

describe("a write validated against the head", () => {
  it("is not stored if the head moved before it committed", async () => {
    const first = await turn({ input: [{ human: { content: "one" } }] });
    const second = await turn({ dialogId: first.dialogId, input: [{ human: { content: "two" } }] });
    const before = await prisma.event.count({ where: { dialogId: first.dialogId } });
    const outcome = await insertTurn({
      responseId: newResponseId(),
      dialog: { id: first.dialogId, isNew: false, tenantId: "default" },
      parent: null,
      expectedHeadId: first.id, // stale: the head is `second` now
      model: null,
      status: "COMPLETED",
      usage: { inputTokens: null, outputTokens: null, reasoningTokens: null, totalTokens: null },
      error: null,
      metadata: {},
      idempotencyKey: null,
      requestHash: null,
      input: [
        {
          type: "HUMAN",
          content: "three",
          parts: null,
          modelName: null,
          callId: null,
          toolName: null,
          args: null,
          isError: null,
          metadata: {},
          createdAt: null,
        },
      ],
      output: [],
      now: new Date(),
    });
    expect(outcome).toBe("head-moved");
    expect(await prisma.event.count({ where: { dialogId: first.dialogId } })).toBe(before);
    const dialog = await prisma.dialog.findUniqueOrThrow({ where: { id: first.dialogId } });
    expect(dialog).toMatchObject({ headId: second.id, headDepth: 1, lastSeq: before });
  });
});
