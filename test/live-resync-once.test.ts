// A resync sends nothing the subscriber has. One instance on a Redis server this file starts (as
// `npm run bench:cluster` at N = 1, on one server instead of a cluster): when Redis dies and comes
// back, every listener of the instance re-reads its dialog from what it was sent. A turn written
// whole (its response finished by the write that added its events) was shown with its final status
// in its delta; the re-read still finds that finish as a status change at the seq sent, and must
// not send the seq again (it did: every subscriber of the dialog got it twice, in the bench).
// The cluster's per-shard resync is the same in test/live-redis-cluster.test.ts.
import { Redis } from "ioredis";
import { describe, it } from "vitest";
import { startTestServer } from "./support/live.js";
import { startOwnRedis } from "./support/redis-server.js";
import { until } from "./support/until.js";
import { subscribersOfWholeTurn } from "./support/whole-turn-subscribers.js";

/** How many connections of the Redis server at `url` are subscribed to `channel`. */
async function subscribersOf(url: string, channel: string) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    const [, count] = (await redis.call("PUBSUB", "NUMSUB", channel)) as [string, number];
    return count;
  } finally {
    redis.disconnect();
  }
}

describe("a dialog's subscribers through a Redis restart", () => {
  it("get each delta once, each previousSeq the seq they were sent before", async () => {
    const redis = await startOwnRedis();
    const server = await startTestServer({ redisUrl: redis.url });
    const { dialogId, expectEachDeltaOnce } = await subscribersOfWholeTurn(server);

    await redis.kill();
    await redis.restart();
    // Subscribed again once the instance reconnected: the resync of every listener follows at once.
    const channel = `historyDelta:{${dialogId}}`;
    await until(async () => (await subscribersOf(redis.url, channel)) === 1, "the channel subscribed again", 20_000);
    await expectEachDeltaOnce();
  }, 60_000);
});
