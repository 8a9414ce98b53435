// In-flight text through a Redis stall: a delta taken while Redis does not answer is held by the
// instance that took it (it is acknowledged, not failed), and handed back to Redis as soon as Redis
// answers again — after the next delta, or at shutdown — so another instance, or this one after a
// restart, goes on from the whole text. Before, one stalled command (or an event loop starved past
// the command timeout, as on a loaded CI machine) pinned the text to the process for the rest of
// the answer, and a restart lost what it held: the agent was told to resend from an earlier offset.
import { afterAll, describe, expect, it } from "vitest";
import type { StreamTextInput } from "../src/client/generated/graphql.js";
import { type RunningServer, startServer } from "../src/server/http-server.js";
import { configWith, store } from "./support/database.js";
import { writer } from "./support/dialogs.js";
import { httpExecutor } from "./support/live.js";
import { startOwnRedis } from "./support/redis-server.js";
import { STREAM_TEXT } from "./support/text-stream.js";
import { until } from "./support/until.js";

const COMMAND_TIMEOUT_MS = 200;

describe("in-flight text through a Redis stall", async () => {
  const redis = await startOwnRedis();
  const servers: RunningServer[] = [];
  const start = async () => {
    const server = await startServer({
      store,
      config: configWith({ REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) }),
      port: 0,
      redisUrl: redis.url,
      inFlight: { sweep: false },
    });
    servers.push(server);
    const run = httpExecutor(server);
    const streamText = async (input: StreamTextInput) => (await run(STREAM_TEXT, { input })).streamText;
    return { server, write: writer(run), streamText };
  };
  afterAll(async () => {
    redis.resume();
    for (const server of servers) await server.close();
  });

  /** Streams `words` to `responseId` from `offset`, each delta acknowledged at its new length. */
  async function streamWords(
    through: Awaited<ReturnType<typeof start>>,
    responseId: string,
    words: string[],
    offset: number,
  ) {
    for (const word of words) {
      const answer = await through.streamText({ responseId, type: "AI", delta: word, offset });
      expect(answer, JSON.stringify(answer)).toMatchObject({
        __typename: "TextPosition",
        length: offset + word.length,
      });
      offset += word.length;
    }
    return offset;
  }

  it("a delta taken during the stall reaches Redis after the next one, and another instance goes on from it", async () => {
    const first = await start();
    const other = await start();
    const started = await first.write.createResponse({ input: [{ human: { content: "Tell me" } }] });
    let offset = await streamWords(first, started.id, ["one "], 0);
    redis.pause();
    offset = await streamWords(first, started.id, ["two "], offset);
    redis.resume();
    offset = await streamWords(first, started.id, ["three "], offset);
    // The other instance reads Redis only: it takes the next delta once the hand-back landed there.
    let answer: Awaited<ReturnType<typeof other.streamText>> | undefined;
    await until(async () => {
      answer = await other.streamText({ responseId: started.id, type: "AI", delta: "four ", offset });
      return !(answer.__typename === "TextOffsetError" && answer.expectedOffset === "one ".length);
    }, "the text handed back to Redis");
    expect(answer).toMatchObject({ __typename: "TextPosition", length: "one two three four ".length });
  });

  it("a text held in the process at shutdown is handed back, and the restarted server goes on from its end", async () => {
    const before = await start();
    const started = await before.write.createResponse({ input: [{ human: { content: "Tell me" } }] });
    let offset = await streamWords(before, started.id, ["one ", "two "], 0);
    redis.pause();
    offset = await streamWords(before, started.id, ["three "], offset);
    redis.resume();
    await before.server.close();
    const after = await start();
    await streamWords(after, started.id, ["four "], offset);
  });
});
