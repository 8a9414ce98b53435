// Several instances behind a load balancer: two real server processes share one PostgreSQL
// database and fan out through Redis. A subscriber on either sees every write made through the
// other, over graphql-ws and over SSE.
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { writer } from "./support/dialogs.js";
import { type DeltaData, HISTORY_DELTA, httpExecutor, subscribe, take } from "./support/live.js";
import { type ServerProcess, startServerProcess } from "./support/processes.js";

const redisUrl = process.env.TEST_REDIS_URL;
// Separate processes need a database they can all reach; the embedded PGlite lives in one process.
const sharedDatabase = Boolean(process.env.TEST_DATABASE_URL);

const runs = Boolean(redisUrl && sharedDatabase);
const title = runs
  ? "two instances with REDIS_URL"
  : "two instances with REDIS_URL (skipped: needs TEST_REDIS_URL, and TEST_DATABASE_URL since server processes cannot share the embedded PGlite)";

describe.runIf(runs)(title, () => {
  let a: ServerProcess;
  let b: ServerProcess;
  const disposers: (() => void)[] = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startServerProcess({ REDIS_URL: redisUrl! }),
      startServerProcess({ REDIS_URL: redisUrl! }),
    ]);
  });
  afterAll(() => disposers.forEach((dispose) => dispose()));

  it("a subscriber on one instance sees every write made through the other", async () => {
    const viaA = writer(httpExecutor(a));
    const viaB = writer(httpExecutor(b));
    const started = await viaB.createResponse({ input: [{ human: { content: "q" } }] });
    const dialogId = started.dialog.id;

    const ws = createWsClient({
      url: `${a.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    const sse = createSseClient({ url: `${b.url}/graphql`, retryAttempts: 0 });
    disposers.push(
      () => ws.dispose(),
      () => sse.dispose(),
    );
    const onA = subscribe(ws, HISTORY_DELTA, { dialogId, afterSeq: 0 });
    const onB = subscribe(sse, HISTORY_DELTA, { dialogId, afterSeq: 0 });
    // The replayed first event: once it has arrived, each subscriber is listening on Redis.
    const seenOnA = await take(onA, 1);
    const seenOnB = await take(onB, 1);

    // Writes alternate between the instances; each delta reaches both subscribers.
    const writes = [
      () => viaB.appendEvents({ responseId: started.id, events: [{ ai: { content: "from B" } }] }),
      () => viaA.appendEvents({ responseId: started.id, events: [{ ai: { content: "from A" } }] }),
      () => viaB.appendEvents({ responseId: started.id, events: [{ ai: { content: "B again" } }] }),
      () => viaA.completeResponse({ responseId: started.id }),
    ];
    for (const write of writes) {
      expect((await write()).__typename).toBe("Response");
      seenOnA.push(...(await take(onA, 1)));
      seenOnB.push(...(await take(onB, 1)));
    }

    const summary = (deltas: DeltaData[]) =>
      deltas.map(({ historyDelta: d }) => [
        d.previousSeq,
        d.seq,
        d.status,
        d.append.map((e) => ("content" in e ? e.content : undefined)),
      ]);
    const expected = [
      [0, 1, "IN_PROGRESS", ["q"]],
      [1, 2, "IN_PROGRESS", ["from B"]],
      [2, 3, "IN_PROGRESS", ["from A"]],
      [3, 4, "IN_PROGRESS", ["B again"]],
      [4, 4, "COMPLETED", []],
    ];
    expect(summary(seenOnA)).toEqual(expected);
    expect(summary(seenOnB)).toEqual(expected);
    await Promise.all([onA.return?.(), onB.return?.()]);
  });
});
