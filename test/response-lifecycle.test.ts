// Writing a turn step by step: an agent appends its steps, then completes the turn or is
// interrupted. An interrupt keeps the partial answer (SAVE_PARTIAL), keeps it marked as interrupted
// (SAVE_MARKED) or drops it (DISCARD), and the subscriber's delta says so. Every
// refused call is a typed error that stores nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import type { RunningServer } from "../src/server/http-server.js";
import type { InterruptBehavior } from "../src/client/generated/graphql.js";
import { rowCounts, withField, writer } from "./support/dialogs.js";
import { HISTORY_DELTA, httpExecutor, startTestServer, subscribe, take, wsClient } from "./support/live.js";

let server: RunningServer;
let write: ReturnType<typeof writer>;

beforeAll(async () => {
  server = await startTestServer();
  write = writer(httpExecutor(server));
});

/** An in-progress turn: a question and the first words of the answer (seqs 1 and 2). */
async function turnInProgress() {
  const started = await write.createResponse({ input: [{ human: { content: "Write a poem" } }] });
  await write.appendEvents({ responseId: started.id, events: [{ reasoning: { content: "Rhymes about rain." } }] });
  return { responseId: started.id, dialogId: started.dialog.id };
}

const storedResponse = (id: string) =>
  prisma.response.findUniqueOrThrow({
    where: { id },
    include: { events: { orderBy: { seq: "asc" }, select: { seq: true, type: true, content: true, metadata: true } } },
  });

describe("interruptResponse: the partial answer kept, marked or dropped", () => {
  const cases: {
    behavior: InterruptBehavior;
    status: string;
    append: { __typename: string; seq: number; content: string; metadata: Record<string, unknown> }[];
  }[] = [
    {
      behavior: "SAVE_PARTIAL",
      status: "INCOMPLETE",
      append: [{ __typename: "AiEvent", seq: 3, content: "Rain on the", metadata: {} }],
    },
    {
      behavior: "SAVE_MARKED",
      status: "INCOMPLETE",
      append: [{ __typename: "AiEvent", seq: 3, content: "Rain on the", metadata: { interrupted: true } }],
    },
    { behavior: "DISCARD", status: "CANCELLED", append: [] },
  ];

  it.each(cases)(
    "$behavior keeps its share of the partial answer, ends $status, and its delta says so",
    async (expected) => {
      const { responseId, dialogId } = await turnInProgress();
      const deltas = subscribe(wsClient(server), HISTORY_DELTA, { dialogId, afterSeq: 2 });
      const interrupted = await write.interruptResponse({
        responseId,
        behavior: expected.behavior,
        partialText: "Rain on the",
      });
      expect(interrupted).toMatchObject({ __typename: "Response", status: expected.status });

      const [delta] = await take(deltas, 1);
      const seq = 2 + expected.append.length;
      expect(delta!.historyDelta).toMatchObject({ responseId, previousSeq: 2, seq, status: expected.status });
      expect(
        delta!.historyDelta.append.map((event) => ({
          __typename: event.__typename,
          seq: event.seq,
          content: "content" in event ? event.content : undefined,
          metadata: event.metadata,
        })),
      ).toEqual(expected.append);
      await deltas.return?.();

      const stored = await storedResponse(responseId);
      expect(stored.status).toBe(expected.status);
      expect(stored.completedAt).toBeInstanceOf(Date);
      expect(stored.events.map((e) => [e.seq, e.type, e.content, e.metadata])).toEqual([
        [1, "HUMAN", "Write a poem", {}],
        [2, "REASONING", "Rhymes about rain.", {}],
        ...expected.append.map((e) => [e.seq, "AI", e.content, e.metadata]),
      ]);
      expect((await prisma.dialog.findUniqueOrThrow({ where: { id: dialogId } })).lastSeq).toBe(seq);
    },
  );

  it("a save without partialText is a ValidationError and stores nothing", async () => {
    const { responseId } = await turnInProgress();
    const before = await rowCounts();
    const result = await write.interruptResponse({ responseId, behavior: "SAVE_PARTIAL" });
    expect(result.__typename).toBe("ValidationError");
    expect(withField(result, "fieldErrors").fieldErrors).toEqual([
      { path: ["partialText"], message: "SAVE_PARTIAL needs the partial text (use DISCARD to keep nothing)" },
    ]);
    expect(await rowCounts()).toEqual(before);
    expect((await storedResponse(responseId)).status).toBe("IN_PROGRESS");
  });

  it("interrupting a finished response is a ConflictError", async () => {
    const { responseId } = await turnInProgress();
    await write.completeResponse({ responseId });
    const result = await write.interruptResponse({ responseId, behavior: "SAVE_MARKED", partialText: "late" });
    expect(result).toMatchObject({
      __typename: "ConflictError",
      code: "CONFLICT",
      message: `Response ${responseId} is COMPLETED; only an IN_PROGRESS response can change`,
    });
    expect((await storedResponse(responseId)).events).toHaveLength(2);
  });
});

describe("appendEvents", () => {
  it("with the right expectedSeq appends after it; with a stale one is a ConflictError that stores nothing", async () => {
    const { responseId } = await turnInProgress();
    const ok = await write.appendEvents({ responseId, expectedSeq: 2, events: [{ ai: { content: "Rain" } }] });
    expect(ok.__typename).toBe("Response");
    const before = await rowCounts();
    const stale = await write.appendEvents({ responseId, expectedSeq: 2, events: [{ ai: { content: "again" } }] });
    expect(stale).toMatchObject({
      __typename: "ConflictError",
      message: "expectedSeq is 2 but the dialog's last seq is 3",
    });
    expect(await rowCounts()).toEqual(before);
  });

  it("to a finished response is a ConflictError that stores nothing", async () => {
    const { responseId } = await turnInProgress();
    await write.completeResponse({ responseId });
    const before = await rowCounts();
    const result = await write.appendEvents({ responseId, events: [{ ai: { content: "late" } }] });
    expect(result).toMatchObject({ __typename: "ConflictError", code: "CONFLICT" });
    expect(await rowCounts()).toEqual(before);
  });

  it("answers a tool call appended earlier, and refuses a result with no call, by its input path", async () => {
    const { responseId } = await turnInProgress();
    await write.appendEvents({
      responseId,
      events: [{ toolCall: { callId: "call_7", toolName: "search", args: {} } }],
    });
    const answered = await write.appendEvents({
      responseId,
      events: [{ toolResult: { callId: "call_7", content: "ok" } }],
    });
    expect(answered.__typename).toBe("Response");
    const before = await rowCounts();
    const orphan = await write.appendEvents({
      responseId,
      events: [{ ai: { content: "fine" } }, { toolResult: { callId: "call_none", content: "?" } }],
    });
    expect(orphan.__typename).toBe("ValidationError");
    expect(withField(orphan, "fieldErrors").fieldErrors).toEqual([
      { path: ["events", "1", "toolResult", "callId"], message: "no tool call with callId call_none in the context" },
    ]);
    expect(await rowCounts()).toEqual(before);
  });

  it("to an unknown response is a NotFoundError; with no events, a ValidationError", async () => {
    expect(await write.appendEvents({ responseId: "resp_NOPE", events: [{ ai: { content: "x" } }] })).toMatchObject({
      __typename: "NotFoundError",
      message: "Response resp_NOPE not found",
    });
    const { responseId } = await turnInProgress();
    const empty = await write.appendEvents({ responseId, events: [] });
    expect(withField(empty, "fieldErrors").fieldErrors).toEqual([
      { path: ["events"], message: "at least one event is required" },
    ]);
  });
});

describe("completeResponse", () => {
  it("sets the final status, usage and error once", async () => {
    const { responseId } = await turnInProgress();
    const failed = await write.completeResponse({
      responseId,
      status: "FAILED",
      usage: { inputTokens: 10, outputTokens: 3 },
      error: { code: "rate_limited" },
    });
    expect(failed).toMatchObject({ __typename: "Response", status: "FAILED" });
    const stored = await storedResponse(responseId);
    expect([stored.inputTokens, stored.outputTokens, stored.totalTokens, stored.error]).toEqual([
      10,
      3,
      null,
      { code: "rate_limited" },
    ]);
    expect(stored.completedAt).toBeInstanceOf(Date);
    expect(await write.completeResponse({ responseId })).toMatchObject({ __typename: "ConflictError" });
  });

  it("refuses IN_PROGRESS as a final status", async () => {
    const { responseId } = await turnInProgress();
    const result = await write.completeResponse({ responseId, status: "IN_PROGRESS" });
    expect(withField(result, "fieldErrors").fieldErrors).toEqual([
      { path: ["status"], message: "must be one of COMPLETED, FAILED, INCOMPLETE, CANCELLED" },
    ]);
    expect((await storedResponse(responseId)).status).toBe("IN_PROGRESS");
  });
});
