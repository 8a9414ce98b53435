// In-flight text in Redis costs its new text (issue 29, finding 9 follow-up): a delta appends to
// the held text and reads only its head (part, type, lengths), and a checkpoint reads only what
// was typed since the one before, so neither moves the text so far through Redis. Counted on the
// wire by a TCP proxy in front of Redis; the text in Redis and in the checkpoint stays exact.
import { afterAll, describe, expect, it } from "vitest";
import { DEVELOPMENT_TENANT } from "../src/auth/authenticator.js";
import { createHistoryWrites } from "../src/history-writes/history-writes.js";
import { createLiveBus } from "../src/live/live-bus.js";
import { readResponseForText } from "../src/services/in-flight-checkpoints.js";
import { store } from "./support/database.js";
import { checkpointingEvery } from "./support/checkpoint-options.js";
import { startTcpProxy } from "./support/tcp-proxy.js";
import { until } from "./support/until.js";

const redisUrl = process.env.TEST_REDIS_URL;
const DELTA_CHARS = 500;
const CHECKPOINT_CHARS = 2_000;
/**
 * What a delta may move besides its text (sent twice: the append, and its publication to other
 * instances): the head read, the scripts' source (EVAL), the replies; a checkpoint's read adds its script.
 */
const ENVELOPE_BYTES = 3_072;

const closing: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closing) await close();
});

async function instanceThroughProxy() {
  const { hostname, port } = new URL(redisUrl!);
  const proxy = await startTcpProxy({ host: hostname, port: Number(port || 6379) });
  const live = createLiveBus({
    redisUrl: `redis://127.0.0.1:${proxy.port}`,
    // Not the process's memory on a loaded machine's slow answer: the bytes counted are Redis's.
    redisCommandTimeoutMs: 10_000,
  });
  const writes = createHistoryWrites(store, live, checkpointingEvery(CHECKPOINT_CHARS));
  closing.push(
    () => writes.close(),
    () => live.close(),
  );
  // Connected first: a delta taken while Redis cannot answer is held in this process instead.
  await until(async () => (await live.redis!.ping().catch(() => null)) === "PONG", "Redis through the proxy");
  return { proxy, writes };
}

describe.runIf(redisUrl)("in-flight text in Redis", () => {
  it("moves only each delta's text, appended or checkpointed, up to a 100 KB answer", async () => {
    const { proxy, writes } = await instanceThroughProxy();
    const { responseId } = await writes.createResponse(
      { input: [{ human: { content: "Tell me a long story" } }] },
      DEVELOPMENT_TENANT,
    );
    // Incompressible-ish, and with characters of 2, 3 and 4 bytes, so bytes and UTF-16 units differ.
    const delta = (i: number) =>
      `${String(i).padStart(4, "0")} é€😀 ${"lorem ipsum ".repeat(42)}`.slice(0, DELTA_CHARS);
    let text = "";
    const moved: number[] = [];
    for (let i = 0; text.length < 100_000; i++) {
      const before = proxy.moved.up + proxy.moved.down;
      await writes.streamText({ responseId, type: "AI", delta: delta(i), offset: text.length });
      text += delta(i);
      moved.push(proxy.moved.up + proxy.moved.down - before);
    }
    // Every fourth delta checkpoints: it reads its 2,000 characters back, the others none.
    const newBytes =
      Buffer.byteLength(delta(0)) * 2 + Buffer.byteLength(delta(0).repeat(CHECKPOINT_CHARS / DELTA_CHARS));
    for (const bytes of moved) {
      // At least the append went through Redis (the text is not held in this process instead).
      expect(bytes).toBeGreaterThan(Buffer.byteLength(delta(0)));
      expect(bytes).toBeLessThan(newBytes + ENVELOPE_BYTES);
    }
    const mean = (of: number[]) => of.reduce((a, b) => a + b, 0) / of.length;
    expect(mean(moved.slice(-40))).toBeLessThan(mean(moved.slice(0, 40)) + 256);
    // Exact: the held text, and the checkpoint of another instance's database reads.
    expect((await writes.textOf(responseId))?.text).toBe(text);
    const checkpointed = (await readResponseForText(store, responseId))!.checkpoint!.text;
    expect(text.startsWith(checkpointed)).toBe(true);
    expect(text.length - checkpointed.length).toBeLessThan(CHECKPOINT_CHARS);
  });
});
