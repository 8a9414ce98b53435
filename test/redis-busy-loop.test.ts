// A Redis answer that came in time is not a timeout because the event loop was busy when it came.
// During a connect storm the loop runs start-up work for longer than REDIS_COMMAND_TIMEOUT_MS at a
// stretch; the expired timer then runs before the loop reads its sockets. Counted as a timeout, a
// subscriber connection's SSUBSCRIBE or heartbeat PING dropped the connection, and every channel
// of it was subscribed again and every listener resynced: more work for the loop that was late
// already (bench:cluster's storm behind a Redis Cluster). Each case starts its wait in the loop's
// check phase and keeps the loop busy past the timeout there, so the timer is always due before
// the answer is read.
import { stat } from "node:fs/promises";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { subscriberConnectionOptions, withTimeout } from "../src/live/redis-messages.js";

const redisUrl = process.env.TEST_REDIS_URL;

/** Runs `start` in the loop's check phase, then keeps the loop busy for `busyMs` there. */
function startThenBusy<T>(start: () => Promise<T>, busyMs: number): Promise<{ waiting: Promise<T> }> {
  return new Promise((resolve) =>
    setImmediate(() => {
      const waiting = start();
      const end = performance.now() + busyMs;
      while (performance.now() < end); // the loop is busy: nothing is read meanwhile
      resolve({ waiting });
    }),
  );
}

describe("a wait on Redis after a busy stretch of the event loop", () => {
  it("withTimeout takes an answer that arrived while the loop was busy past the timeout", async () => {
    // A file's stat completes on the thread pool during the busy stretch; its answer is read in
    // the loop's poll phase, after the expired timer.
    const { waiting } = await startThenBusy(() => withTimeout(stat(import.meta.filename), 20), 200);
    await expect(waiting).resolves.toMatchObject({ size: expect.any(Number) });
  });

  it("still fails a wait whose answer never comes", async () => {
    await expect(withTimeout(new Promise(() => undefined), 20)).rejects.toThrow("Command timed out");
  });

  describe.runIf(redisUrl)("on a Redis subscriber connection", () => {
    const client = new Redis(redisUrl!, { ...subscriberConnectionOptions(50), lazyConnect: true });
    afterAll(() => client.disconnect());

    it("a PING answered during the busy stretch is no timeout (ioredis' own command timer is off)", async () => {
      await client.connect();
      const { waiting } = await startThenBusy(() => withTimeout(client.ping(), 50), 500);
      await expect(waiting).resolves.toBe("PONG");
    });
  });
});
