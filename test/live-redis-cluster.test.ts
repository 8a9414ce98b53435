// Two instances on a Redis Cluster (REDIS_CLUSTER_NODES) of three masters that this file starts:
// history goes between them on sharded channels (SSUBSCRIBE on the master of the channel's slot,
// SPUBLISH to it), the keyed commands of the in-flight text and the rate limits work on the
// cluster, and when the master holding a dialog's channel dies and comes back, the subscribers of
// that dialog on the other instance get every write exactly once.
import { Redis } from "ioredis";
import { beforeAll, describe, expect, it } from "vitest";
import calculateSlot from "cluster-key-slot";
import { createRateLimiter } from "../src/auth/rate-limit.js";
import { redisInFlightStore } from "../src/live/in-flight-store.js";
import type { RunningServer } from "../src/server/http-server.js";
import { writer } from "./support/dialogs.js";
import {
  type DeltaData,
  HISTORY_DELTA,
  httpExecutor,
  startTestServer,
  subscribe,
  take,
  wsClient,
} from "./support/live.js";
import { type OwnRedisCluster, redisClusterUnavailable, startOwnRedisCluster } from "./support/redis-cluster.js";
import { until } from "./support/until.js";
import { deltaSummary, subscribersOfWholeTurn } from "./support/whole-turn-subscribers.js";

const unavailable = redisClusterUnavailable();
const title = unavailable
  ? `two instances on a Redis Cluster (skipped: ${unavailable})`
  : "two instances on a Redis Cluster";

/** Runs one command on one node of the cluster (not through the cluster client: to see where things are). */
async function onNode(port: number, ...command: [string, ...(string | number)[]]) {
  const node = new Redis({ port, host: "127.0.0.1", lazyConnect: true });
  try {
    await node.connect();
    return await node.call(...command);
  } finally {
    node.disconnect();
  }
}

describe.skipIf(unavailable)(title, () => {
  let cluster: OwnRedisCluster;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    cluster = await startOwnRedisCluster();
    const options = { redisUrl: null, redisClusterNodes: cluster.nodes };
    [a, b] = await Promise.all([startTestServer(options), startTestServer(options)]);
  }, 60_000);

  /** The master whose slots hold `channel` (or a key), asked of the cluster itself. */
  async function masterOf(channel: string) {
    const slot = calculateSlot(channel);
    const shards = (await onNode(cluster.masters[0]!.port, "CLUSTER", "SLOTS")) as [number, number, [string, number]][];
    const [, , [, port]] = shards.find(([from, to]) => from <= slot && slot <= to)!;
    return cluster.masters.find((master) => master.port === port)!;
  }

  /** The events of consecutive deltas (each previousSeq the seq before), in order. */
  const events = (deltas: DeltaData[]) => {
    deltas.forEach(({ historyDelta: d }, i) => expect(d.previousSeq).toBe(i ? deltas[i - 1]!.historyDelta.seq : 0));
    return deltas.flatMap(({ historyDelta: d }) => d.append.map((e) => ("content" in e ? e.content : null)));
  };

  it("carries each dialog's deltas on a sharded channel of its slot's master, to the other instance", async () => {
    const viaB = writer(httpExecutor(b));
    const started = await viaB.createResponse({ input: [{ human: { content: "q" } }] });
    const dialogId = started.dialog.id;
    const onA = subscribe(wsClient(a), HISTORY_DELTA, { dialogId, afterSeq: 0 });
    const seen = await take(onA, 1);

    // Subscribed on the one master of the channel's slot, by both instances' live buses? Only A
    // listens; and as a shard channel, never as a classic one (which the cluster bus copies to all).
    const channel = `historyDelta:{${dialogId}}`;
    const master = await masterOf(channel);
    expect(await onNode(master.port, "PUBSUB", "SHARDNUMSUB", channel)).toEqual([channel, 1]);
    for (const node of cluster.masters)
      expect(await onNode(node.port, "PUBSUB", "CHANNELS", "historyDelta*")).toEqual([]);

    await viaB.appendEvents({ responseId: started.id, events: [{ ai: { content: "from B" } }] });
    await viaB.completeResponse({ responseId: started.id });
    seen.push(...(await take(onA, 2)));
    expect(deltaSummary(seen)).toEqual([
      [0, 1, ["q"]],
      [1, 2, ["from B"]],
      [2, 2, []],
    ]);
    await onA.return?.();
  });

  it("keeps in-flight text and rate limits on the cluster, one key per response or API key", async () => {
    const texts = redisInFlightStore(a.live.redis!);
    const state = {
      dialogId: "d1",
      responseId: `r-${Date.now()}`,
      tenantId: "t",
      part: 0,
      type: "AI" as const,
      text: "He",
      at: 1,
    };
    await texts.put(state);
    // Appended through the other instance's connection: one text, held once, for the whole cluster.
    expect(
      await redisInFlightStore(b.live.redis!).append(state.responseId, { part: 0, type: "AI", offset: 2 }, "llo", 2),
    ).toEqual({
      appended: true,
      length: 5,
      bytes: 5,
    });
    expect((await texts.get(state.responseId))?.text).toBe("Hello");
    // The head and the text are two keys of one slot: a checkpoint reads the text from a mark on.
    expect(await texts.tail(state.responseId, 0, { part: 0, length: 2, bytes: 2 })).toMatchObject({
      head: { part: 0, length: 5, bytes: 5 },
      from: 2,
      text: "llo",
    });

    const key = `key-${Date.now()}`;
    const [viaA, viaB] = [a, b].map((server) =>
      createRateLimiter({ requests: 3, windowSeconds: 60, redis: server.live.redis }),
    );
    const decisions = [];
    for (const limiter of [viaA, viaB, viaA, viaB]) decisions.push((await limiter!.consume(key)).allowed);
    expect(decisions).toEqual([true, true, true, false]);
  });

  it("resyncs the dialogs of a master that died and came back: every write once, on the other instance", async () => {
    const viaB = writer(httpExecutor(b));
    // A response whose in-flight text keys live on the master of its dialog's channel: the writes
    // while it is away and the catch-up read after it came back both look at its text there, and
    // must hear back from Redis (or fall back to memory) instead of waiting on the dead master.
    let started = await viaB.createResponse({ input: [{ human: { content: "before" } }] });
    while (
      (await masterOf(`historyDelta:{${started.dialog.id}}`)) !==
      (await masterOf(`dialogql:in-flight:{${started.id}}:text`))
    )
      started = await viaB.createResponse({ input: [{ human: { content: "before" } }] });
    const dialogId = started.dialog.id;
    const onA = subscribe(wsClient(a), HISTORY_DELTA, { dialogId, afterSeq: 0 });
    const seen = await take(onA, 1);
    const master = await masterOf(`historyDelta:{${dialogId}}`);

    await master.kill();
    // Written while the shard is away: A hears nothing of these through Redis.
    for (const content of ["during 1", "during 2"]) {
      expect((await viaB.appendEvents({ responseId: started.id, events: [{ ai: { content } }] })).__typename).toBe(
        "Response",
      );
    }
    await master.restart();
    // Nothing is written after the restart: A can only catch up through the resync of the shard
    // (which reads the missed writes as one delta, 1 → 3), or from a publish the cluster client
    // sent late; either way each event arrives once, in order.
    while (seen.at(-1)!.historyDelta.seq < 3) {
      seen.push(...(await take(onA, 1)));
    }
    expect(events(seen)).toEqual(["before", "during 1", "during 2"]);

    // And the channel is live again on its master: a later write arrives as a delta.
    await viaB.appendEvents({ responseId: started.id, events: [{ ai: { content: "after" } }] });
    expect(deltaSummary(await take(onA, 1))).toEqual([[3, 4, ["after"]]]);
    await onA.return?.();
  }, 60_000);

  it("sends each of a dialog's deltas once to every subscriber when its master dies and comes back", async () => {
    // One instance, as in `npm run bench:cluster` at N = 1: subscribers and writer on A. A turn
    // written whole (its response finished by the write that added its events) before the master
    // dies: the resync after it comes back must not send that finish again as a status-only delta.
    const { dialogId, expectEachDeltaOnce } = await subscribersOfWholeTurn(a);
    const channel = `historyDelta:{${dialogId}}`;
    const master = await masterOf(channel);

    await master.kill();
    await master.restart();
    // The channel is subscribed again on the master that came back: its resync is under way.
    const shardSubscribers = async () =>
      ((await onNode(master.port, "PUBSUB", "SHARDNUMSUB", channel)) as [string, number])[1];
    await until(async () => (await shardSubscribers()) === 1, "the channel subscribed again", 20_000);
    await expectEachDeltaOnce();
  }, 60_000);
});
