// Sequence numbers are handed out under the dialog's row lock: concurrent writers to one dialog
// never produce a duplicate or a gap.
import { describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
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

describe("16 concurrent writers mixing tool calls and tool results on one dialog", () => {
  it("all queue on the dialog: every write stored, seqs gap-free, no ConflictError", async () => {
    const dialog = await turn({ input: [{ human: { content: "start" } }] });
    const WRITERS = 16;
    const ROUNDS = 5;
    // Each round a writer chains a tool call to the head, then a result for it: the result is
    // validated against whatever context the head has when it is written, which other writers
    // keep moving.
    const writer = async (w: number) => {
      const outcomes: any[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const callId = `call_${w}_${round}`;
        outcomes.push(
          await createResponse({
            dialogId: dialog.dialogId,
            input: [{ human: { content: `writer ${w} round ${round}` } }],
            output: [{ toolCall: { callId, toolName: "lookup", args: { w, round } } }],
          }),
        );
        outcomes.push(
          await createResponse({
            dialogId: dialog.dialogId,
            input: [{ toolResult: { callId, content: `result ${w}.${round}` } }],
            output: [{ ai: { content: `answer ${w}.${round}` } }],
          }),
        );
      }
      return outcomes;
    };
    const outcomes = (await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))).flat();
    const failures = outcomes.filter((outcome) => outcome.__typename !== "Response");
    expect(failures).toEqual([]);

    const writes = WRITERS * ROUNDS * 2;
    const events = await prisma.event.findMany({ where: { dialogId: dialog.dialogId }, orderBy: { seq: "asc" } });
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 1 + writes * 2 }, (_, i) => i + 1));
    const responses = await prisma.response.findMany({
      where: { dialogId: dialog.dialogId },
      orderBy: { depth: "asc" },
    });
    expect(responses.map((r) => r.depth)).toEqual(Array.from({ length: 1 + writes }, (_, i) => i));
    // Every result found its call, named by the call's tool.
    const results = events.filter((e) => e.type === "TOOL_RESULT");
    expect(results).toHaveLength(WRITERS * ROUNDS);
    expect(results.every((e) => e.toolName === "lookup")).toBe(true);
  });
});
