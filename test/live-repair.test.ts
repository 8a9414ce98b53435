// Payloads are hints, the database is the truth: a payload that never arrives (Redis blinked, a
// slow subscriber's buffer overflowed), arrives twice or arrives out of order still gives the
// subscriber every event once, in order. And a delta costs one read however many subscribers.
import { beforeAll, describe, expect, it } from "vitest";
import { readDelta, readDeltasBetween } from "../src/live/delta-reads.js";
import { readGap } from "../src/live/gap-reads.js";
import type { RunningServer } from "../src/server/http-server.js";
import { appendEvents } from "../src/services/response-lifecycle.js";
import { store } from "./support/database.js";
import { writer } from "./support/dialogs.js";
import {
  type DeltaData,
  HISTORY_DELTA,
  httpExecutor,
  startTestServer,
  take,
  wsClient,
  subscribe,
} from "./support/live.js";
import { countStatements } from "./support/query-counter.js";
import { metrics } from "../src/metrics.js";

let server: RunningServer;
let write: ReturnType<typeof writer>;

beforeAll(async () => {
  server = await startTestServer();
  write = writer(httpExecutor(server));
});

const ranges = (deltas: DeltaData[]) =>
  deltas.map(({ historyDelta: d }) => [
    d.previousSeq,
    d.seq,
    d.append.map((e) => ("content" in e ? e.content : undefined)),
  ]);

/** A subscriber that has received the dialog's first event, so it is listening for the next. */
async function subscribed(dialogId: string) {
  const deltas = subscribe(wsClient(server), HISTORY_DELTA, { dialogId, afterSeq: 0 });
  expect(ranges(await take(deltas, 1))).toEqual([[0, 1, ["e1"]]]);
  return deltas;
}

/** A dialog with one in-progress response, watched by one subscriber. */
async function watchedDialog() {
  const started = await write.createResponse({ input: [{ human: { content: "e1" } }] });
  const dialogId: string = started.dialog.id;
  return { dialogId, responseId: started.id as string, deltas: await subscribed(dialogId) };
}

const ai = (content: string) => ({ ai: { content } });

describe("historyDelta repairs what pub/sub loses", () => {
  it("a write whose payload was lost is read from the database when the next payload shows the gap", async () => {
    const { responseId, deltas } = await watchedDialog();
    // Written by the service alone: committed, never published.
    await appendEvents(store, { responseId, events: [ai("e2"), ai("e3")] });
    await write.appendEvents({ responseId, events: [ai("e4")] });
    expect(ranges(await take(deltas, 2))).toEqual([
      [1, 3, ["e2", "e3"]],
      [3, 4, ["e4"]],
    ]);
    await deltas.return?.();
  });

  it("a payload delivered twice is sent once", async () => {
    const { responseId, deltas } = await watchedDialog();
    const first = await appendEvents(store, { responseId, events: [ai("e2")] });
    server.live.publish(first);
    server.live.publish(first);
    await write.appendEvents({ responseId, events: [ai("e3")] });
    expect(ranges(await take(deltas, 2))).toEqual([
      [1, 2, ["e2"]],
      [2, 3, ["e3"]],
    ]);
    await deltas.return?.();
  });

  it("payloads arriving out of order still give the events in seq order, once", async () => {
    const { responseId, deltas } = await watchedDialog();
    const earlier = await appendEvents(store, { responseId, events: [ai("e2")] });
    const later = await appendEvents(store, { responseId, events: [ai("e3")] });
    server.live.publish(later); // waits for the one before it (src/live/seq-order.ts)
    server.live.publish(earlier);
    await write.appendEvents({ responseId, events: [ai("e4")] });
    expect(ranges(await take(deltas, 3))).toEqual([
      [1, 2, ["e2"]],
      [2, 3, ["e3"]],
      [3, 4, ["e4"]],
    ]);
    await deltas.return?.();
  });

  // Issue 29's soak: writers publish after their commits, so a dialog's payloads often arrive a
  // moment out of order, and each of its subscribers then read the gap and took its slow chain.
  it("a payload that arrives just before the one it follows is put back in order, not read as a gap", async () => {
    const { responseId, deltas } = await watchedDialog();
    const earlier = await appendEvents(store, { responseId, events: [ai("e2")] });
    const later = await appendEvents(store, { responseId, events: [ai("e3")] });
    const direct = async () => (await metrics.deltasWrittenDirectly.get()).values[0]?.value ?? 0;
    const before = await direct();
    server.live.publish(later);
    server.live.publish(earlier);
    expect(ranges(await take(deltas, 2))).toEqual([
      [1, 2, ["e2"]],
      [2, 3, ["e3"]],
    ]);
    // Both found the subscriber caught up, so the direct lane wrote them: a gap read would have
    // taken the subscriber's own chain.
    expect((await direct()) - before).toBe(2);
    await deltas.return?.();
  });
});

describe("status changes on resume", () => {
  const statusOf = ({ historyDelta: d }: DeltaData) => [d.previousSeq, d.seq, d.status, d.append.length];

  it("a client that missed a completion (a write with no event) is told when it resumes", async () => {
    const { dialogId, responseId, deltas } = await watchedDialog();
    await deltas.return?.(); // the client goes away with seq 1
    await write.appendEvents({ responseId, events: [ai("e2")] });
    await write.completeResponse({ responseId });
    // It comes back having seen seq 2, but not the completion made at seq 2.
    const resumed = subscribe(wsClient(server), HISTORY_DELTA, { dialogId, afterSeq: 2 });
    expect((await take(resumed, 1)).map(statusOf)).toEqual([[2, 2, "COMPLETED", 0]]);
    // The next write is the next delta: nothing else was queued before it.
    await write.createResponse({ dialogId, input: [{ human: { content: "e3" } }] });
    expect(ranges(await take(resumed, 1))).toEqual([[2, 3, ["e3"]]]);
    await resumed.return?.();
  });

  it("a replay whose events already show the final status adds no status-only delta", async () => {
    const { dialogId, responseId, deltas } = await watchedDialog();
    await deltas.return?.();
    await write.appendEvents({ responseId, events: [ai("e2")] });
    await write.completeResponse({ responseId });
    const resumed = subscribe(wsClient(server), HISTORY_DELTA, { dialogId, afterSeq: 1 });
    expect((await take(resumed, 1)).map(statusOf)).toEqual([[1, 2, "COMPLETED", 1]]);
    await write.createResponse({ dialogId, input: [{ human: { content: "e3" } }] });
    expect(ranges(await take(resumed, 1))).toEqual([[2, 3, ["e3"]]]);
    await resumed.return?.();
  });
});

describe("historyDelta reads", () => {
  async function statementsForOneDelta(subscriberCount: number) {
    const { dialogId, responseId, deltas } = await watchedDialog();
    const others = await Promise.all(Array.from({ length: subscriberCount - 1 }, () => subscribed(dialogId)));
    const everyone = [deltas, ...others];
    const { statements } = await countStatements(async () => {
      await write.appendEvents({ responseId, events: [ai("shared")] });
      const received = await Promise.all(everyone.map((d) => take(d, 1)));
      expect(received.map(ranges)).toEqual(everyone.map(() => [[1, 2, ["shared"]]]));
    });
    await Promise.all(everyone.map((d) => d.return?.()));
    return statements.length;
  }

  it("are shared by every subscriber of the same delta: 8 subscribers cost what 1 does", async () => {
    const alone = await statementsForOneDelta(1);
    const crowd = await statementsForOneDelta(8);
    expect(crowd).toBe(alone);
  });

  // Issue 29's soak: writers on another instance publish out of order, and a hundred subscribers
  // of the dialog each read the same gap (three statements apiece, nine tenths of the instance's
  // statements). Subscribers lacking the same span share one read of it.
  it("a gap found by 8 subscribers at once is read once, and each gets it", async () => {
    const { dialogId, responseId, deltas } = await watchedDialog();
    const everyone = [deltas, ...(await Promise.all(Array.from({ length: 7 }, () => subscribed(dialogId))))];
    await appendEvents(store, { responseId, events: [ai("e2")] }); // committed, never published
    await write.appendEvents({ responseId, events: [ai("e3")] });
    const received = await Promise.all(everyone.map((d) => take(d, 2)));
    expect(received.map(ranges)).toEqual(
      everyone.map(() => [
        [1, 2, ["e2"]],
        [2, 3, ["e3"]],
      ]),
    );
    await Promise.all(everyone.map((d) => d.return?.()));

    const one = await countStatements(() => readGap(store, dialogId, 0, 2, 1));
    const { dialogId: other } = await watchedDialog();
    const eight = await countStatements(() =>
      Promise.all(Array.from({ length: 8 }, () => readGap(store, other, 0, 1, 1))),
    );
    expect(one.statements.length).toBeGreaterThan(0);
    expect(eight.statements.length).toBe(one.statements.length);
    expect(new Set(eight.result).size).toBe(1);
    expect(one.result.deltas.map((d) => [d.previousSeq, d.seq])).toEqual([[0, 2]]);
  });

  it("are shared with a subscriber that resolves the same delta a moment later", async () => {
    const { responseId, deltas } = await watchedDialog();
    const write = await appendEvents(store, { responseId, events: [ai("e2")] });
    const first = await countStatements(() => readDelta(store, write));
    expect(first.statements.length).toBeGreaterThan(0);
    const later = await countStatements(() => readDelta(store, write));
    expect(later.statements).toEqual([]);
    expect(later.result).toBe(first.result);
    expect(first.result.events.map((e) => e.content)).toEqual(["e2"]);
    await deltas.return?.();
  });

  // Issue 29's soak: a hundred SSE subscribers of a busy dialog fell behind and each read its gap
  // through Prisma (three statements, each about a millisecond of the instance's CPU to compile),
  // which became the largest part of the instance's work. A gap is now read with two statements
  // sent straight to the driver, and gives the same deltas.
  it("a gap is read with two statements outside Prisma's engine, as the same deltas", async () => {
    const { dialogId, responseId, deltas } = await watchedDialog();
    await appendEvents(store, { responseId, events: [ai("e2"), ai("e3")] });
    await appendEvents(store, { responseId, events: [ai("e4")] });
    const gap = await countStatements(async () => {
      const read = [];
      for await (const delta of readDeltasBetween(store, dialogId, 1, 4, 2)) read.push(delta);
      return read;
    });
    expect(gap.result.map((d) => [d.previousSeq, d.seq, d.status, d.events.map((e) => e.content)])).toEqual([
      [1, 4, "IN_PROGRESS", ["e2", "e3", "e4"]],
    ]);
    expect(gap.result[0]!.response).toMatchObject({ id: responseId, status: "IN_PROGRESS" });
    expect(gap.result[0]!.response.createdAt).toBeInstanceOf(Date);
    expect(gap.statements).toHaveLength(2);
    // Prisma's statements name their tables with the schema; ours do not.
    expect(gap.statements.filter((sql) => sql.includes('"public".'))).toEqual([]);
    await deltas.return?.();
  });
});
