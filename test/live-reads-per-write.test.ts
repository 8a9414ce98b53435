// What a watched write costs the database must not grow with the number of instances watching it:
// the writer reads the committed delta once and sends it with the payload through Redis
// (src/live/delta-carriage.ts), so instances whose subscribers watch the dialog read nothing.
// Counted statement by statement, with 1 and with 3 instances on one Redis server of the test's own.
// Each instance has a store of its own (its own pool and Prisma client, so its own shared reads),
// as separate processes would: that needs a database server (PGlite serves one store).
import { afterAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../src/store/store.js";
import { testConfig } from "./support/database.js";
import { writer } from "./support/dialogs.js";
import { HISTORY_DELTA, httpExecutor, startTestServer, subscribe, take, wsClient } from "./support/live.js";
import { countStatements, withoutKeyChecks } from "./support/query-counter.js";
import { STREAM_TEXT } from "./support/text-stream.js";
import { startOwnRedis } from "./support/redis-server.js";
import { redisClusterUnavailable } from "./support/redis-cluster.js";

const WRITES = 10;

// What a subscriber of in-flight text asks for: the text, and its response's row.
const TEXT_WITH_RESPONSE = `subscription($dialogId: ID!) {
  historyDelta(dialogId: $dialogId) { seq text { responseId offset delta } response { id status } }
}`;
interface TextWithResponse {
  historyDelta: {
    seq: number;
    text: { responseId: string; offset: number; delta: string } | null;
    response: { id: string; status: string } | null;
  };
}
const unavailable = !process.env.TEST_DATABASE_URL
  ? "needs TEST_DATABASE_URL: instances with stores of their own share one database server"
  : redisClusterUnavailable() === "redis-server is not installed"
    ? "redis-server is not installed"
    : null;
const title = unavailable
  ? `database reads per watched write (skipped: ${unavailable})`
  : "database reads per watched write";

describe.skipIf(unavailable)(title, () => {
  const stores: Store[] = [];
  afterAll(() => Promise.all(stores.map((store) => store.close())));

  /** Statements per write with `instances` instances, each with one subscriber of the dialog. */
  async function statementsPerWrite(instances: number) {
    const redis = await startOwnRedis();
    const servers = await Promise.all(
      Array.from({ length: instances }, async () => {
        const store = await openStore(testConfig);
        stores.push(store);
        // No idle sweep: on a slow run its statements would fall into the count.
        return startTestServer({ store, redisUrl: redis.url, inFlight: { sweep: false } });
      }),
    );
    const via = writer(httpExecutor(servers[0]!));
    const started = await via.createResponse({ input: [{ human: { content: "q" } }] });
    const dialogId = started.dialog.id;
    const watchers = servers.map((server) => subscribe(wsClient(server), HISTORY_DELTA, { dialogId, afterSeq: 0 }));
    for (const watcher of watchers) await take(watcher, 1);

    const { result: received, statements } = await countStatements(
      async () => {
        for (let i = 0; i < WRITES; i++)
          await via.appendEvents({ responseId: started.id, events: [{ ai: { content: `a${i}` } }] });
        return Promise.all(watchers.map((watcher) => take(watcher, WRITES)));
      },
      { wholeProcess: true },
    );
    for (const deltas of received) {
      expect(deltas.map(({ historyDelta: d }) => d.append.map((e) => ("content" in e ? e.content : null)))).toEqual(
        Array.from({ length: WRITES }, (_, i) => [`a${i}`]),
      );
    }
    await Promise.all(watchers.map((watcher) => watcher.return?.()));
    return withoutKeyChecks(statements).length / WRITES;
  }

  /**
   * Statements one instance sends to catch `subscribers` subscribers of one dialog up after Redis
   * comes back, the writes made meanwhile through another instance.
   */
  async function statementsPerResync(subscribers: number) {
    const redis = await startOwnRedis();
    const [watched, writing] = await Promise.all(
      [0, 1].map(async () => {
        const store = await openStore(testConfig);
        stores.push(store);
        return startTestServer({ store, redisUrl: redis.url, inFlight: { sweep: false } });
      }),
    );
    const via = writer(httpExecutor(writing!));
    const started = await via.createResponse({ input: [{ human: { content: "q" } }] });
    const dialogId = started.dialog.id;
    const client = wsClient(watched!);
    const watchers = Array.from({ length: subscribers }, () =>
      subscribe(client, HISTORY_DELTA, { dialogId, afterSeq: 0 }),
    );
    for (const watcher of watchers) await take(watcher, 1);
    await redis.kill();
    for (let i = 0; i < 3; i++)
      await via.appendEvents({ responseId: started.id, events: [{ ai: { content: `a${i}` } }] });
    const { statements } = await countStatements(
      async () => {
        await redis.restart();
        // The three writes, as one caught-up delta.
        for (const watcher of watchers)
          expect((await take(watcher, 1))[0]!.historyDelta).toMatchObject({ previousSeq: 1, seq: 4 });
      },
      { wholeProcess: true },
    );
    await Promise.all(watchers.map((watcher) => watcher.return?.()));
    return withoutKeyChecks(statements).length;
  }

  /**
   * Statements the whole process sends while `deltas` text deltas, typed on one of two instances,
   * reach `subscribers` subscribers on each instance, all asking for the response.
   */
  async function statementsForText(deltas: number, subscribers: number) {
    const redis = await startOwnRedis();
    // A checkpoint only with the first delta (the clock stands still, the character bound is far).
    const inFlight = { sweep: false, clock: () => 0, checkpointChars: 1_000_000 };
    const servers = await Promise.all(
      [0, 1].map(async () => {
        const store = await openStore(testConfig);
        stores.push(store);
        return startTestServer({ store, redisUrl: redis.url, inFlight });
      }),
    );
    const run = httpExecutor(servers[0]!);
    const started = await writer(run).createResponse({ input: [{ human: { content: "q" } }] });
    const streamText = async (delta: string) => {
      const { streamText: position } = await run(STREAM_TEXT, { input: { responseId: started.id, type: "AI", delta } });
      expect(position.__typename).toBe("TextPosition");
    };
    const watchers = servers.flatMap((server) => {
      const client = wsClient(server);
      return Array.from({ length: subscribers }, () =>
        client.iterate<TextWithResponse>({ query: TEXT_WITH_RESPONSE, variables: { dialogId: started.dialog.id } }),
      );
    });
    // Everyone live, and the text opened (its first checkpoint written) before counting.
    await streamText("0,");
    for (const watcher of watchers) expect((await take(watcher, 1))[0]!.historyDelta.text?.delta).toBe("0,");

    const { result: received, statements } = await countStatements(
      async () => {
        for (let i = 1; i <= deltas; i++) await streamText(`${i},`);
        return Promise.all(watchers.map((watcher) => take(watcher, deltas)));
      },
      { wholeProcess: true },
    );
    for (const seen of received) {
      expect(seen.map(({ historyDelta: d }) => d.text?.delta)).toEqual(
        Array.from({ length: deltas }, (_, i) => `${i + 1},`),
      );
      for (const { historyDelta: d } of seen) expect(d.response).toEqual({ id: started.id, status: "IN_PROGRESS" });
    }
    await Promise.all(watchers.map((watcher) => watcher.return?.()));
    return withoutKeyChecks(statements);
  }

  it("text deltas cost no statement each, however many subscribers on however many instances", async () => {
    const few = await statementsForText(5, 1);
    const many = await statementsForText(20, 4);
    // The same statements (the first delta's checkpoint was written before counting): none per delta.
    expect(many.length).toBe(few.length);
    expect(many).toEqual(few);
  }, 60_000);

  it("a Redis reconnect costs one catch-up per dialog and instance, not one per subscriber", async () => {
    const one = await statementsPerResync(1);
    const five = await statementsPerResync(5);
    expect(five).toBe(one);
  }, 60_000);

  it("is the same with 3 instances watching as with 1", async () => {
    const one = await statementsPerWrite(1);
    const three = await statementsPerWrite(3);
    expect(three).toBe(one);
  }, 60_000);
});
