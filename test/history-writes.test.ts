// One door for every history write (src/history-writes/): a write made through the Responses API
// at /v1 reaches historyDelta subscribers exactly as the same change made through GraphQL does.
// The real `openai` SDK sends the /v1 requests; an agent streams text with streamText.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server/http-server.js";
import { prisma, store, testConfig } from "./support/database.js";
import { member, writer } from "./support/dialogs.js";
import { httpExecutor, wsClient } from "./support/live.js";
import { STREAM_TEXT, TextSubscriber, iterateTextDeltas } from "./support/text-stream.js";

let server: RunningServer;
let write: ReturnType<typeof writer>;
let run: ReturnType<typeof httpExecutor>;
let openai: OpenAI;

beforeAll(async () => {
  server = await startServer({
    store,
    config: testConfig,
    port: 0,
    redisUrl: process.env.TEST_REDIS_URL,
    inFlight: { sweep: false },
  });
  run = httpExecutor(server);
  write = writer(run);
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused", maxRetries: 0 });
});
afterAll(() => server.close());

async function startTurn() {
  const started = await write.createResponse({ input: [{ human: { content: "Tell me a story" } }] });
  return { responseId: started.id, dialogId: started.dialog.id };
}

/** A turn being typed, watched from after its input: the text is on the watcher's screen. */
async function typedTurn(text: string) {
  const { responseId, dialogId } = await startTurn();
  const watcher = new TextSubscriber(iterateTextDeltas(wsClient(server)), { dialogId, afterSeq: 1 });
  member((await run(STREAM_TEXT, { input: { responseId, type: "AI", delta: text } })).streamText, "TextPosition");
  await watcher.until((s) => s.textOf(responseId) === text);
  return { responseId, dialogId, watcher };
}

describe("the Responses API's writes reach watchers", () => {
  it("DELETE /v1/responses/{id} sends a responseDeleted delta that removes the response's events", async () => {
    const kept = await write.createResponse({
      input: [{ human: { content: "Keep me" } }],
      output: [{ ai: { content: "Kept" } }],
    });
    const dialogId = kept.dialog.id;
    const doomed = await write.createResponse({
      dialogId,
      input: [{ human: { content: "Forget me" } }],
      output: [{ ai: { content: "Forgotten" } }],
    });
    const watcher = new TextSubscriber(iterateTextDeltas(wsClient(server)), { dialogId, afterSeq: 0 });
    await watcher.until((s) => s.events.length === 4);

    expect(await openai.responses.delete(doomed.id)).toEqual({ id: doomed.id, object: "response", deleted: true });
    await watcher.until((s) => s.deltas.at(-1)?.responseDeleted === true);
    expect(watcher.deltas.at(-1)).toMatchObject({
      dialogId,
      responseId: doomed.id,
      responseDeleted: true,
      previousSeq: 4,
      seq: 4,
      status: null,
      append: [],
      cleared: false,
    });
    expect(watcher.events.map((event) => event.content)).toEqual(["Keep me", "Kept"]);
    expect(await prisma.response.count({ where: { id: doomed.id } })).toBe(0);
    watcher.close();
  });

  it("POST /v1/responses/{id}/cancel of a turn being typed ends its text exactly as interruptResponse does", async () => {
    const interrupted = await typedTurn("Half an ans");
    await write.interruptResponse({ responseId: interrupted.responseId, behavior: "SAVE_PARTIAL" });
    const cancelled = await typedTurn("Half an ans");
    // Nobody in this process runs the turn (an agent types it): the cancel ends it here.
    expect((await openai.responses.cancel(cancelled.responseId)).status).toBe("cancelled");

    const ends: unknown[] = [];
    for (const { responseId, watcher } of [interrupted, cancelled]) {
      await watcher.until((s) => s.deltas.at(-1)?.status !== "IN_PROGRESS");
      const last = watcher.deltas.at(-1)!;
      ends.push({
        delta: { previousSeq: last.previousSeq, seq: last.seq, endsTextPart: last.endsTextPart },
        events: watcher.events.map((event) => event.content),
        inFlight: watcher.inFlight,
        held: await server.writes.textOf(responseId),
        stored: (await prisma.event.findMany({ where: { responseId }, orderBy: { seq: "asc" } })).map((e) => e.content),
      });
      watcher.close();
    }
    const kept = {
      delta: { previousSeq: 1, seq: 2, endsTextPart: 1 },
      events: ["Half an ans"],
      inFlight: {},
      held: null,
      stored: ["Tell me a story", "Half an ans"],
    };
    expect(ends).toEqual([kept, kept]);
    const statuses = await prisma.response.findMany({
      where: { id: { in: [interrupted.responseId, cancelled.responseId] } },
      select: { id: true, status: true },
    });
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual({
      [interrupted.responseId]: "INCOMPLETE",
      [cancelled.responseId]: "CANCELLED",
    });
  });
});

describe("the door", () => {
  it("is the only caller of the live bus's publish in src/", () => {
    const src = join(import.meta.dirname, "..", "src");
    const callers = sourceFiles(src)
      .filter((file) => /\.publish(Text)?\(/.test(readFileSync(file, "utf8")))
      .map((file) => relative(src, file));
    // Besides the door: the bus itself (live-bus.ts, and redis-fanout.ts under it), and the keys
    // CLI, which runs outside any app and sends a revocation notice on the notices channel with a
    // Redis client of its own (no history is written).
    const bus = ["live/live-bus.ts", "live/redis-fanout.ts", "auth/keys-cli.ts"];
    expect(callers.filter((file) => !file.startsWith("history-writes/") && !bus.includes(file))).toEqual([]);
    expect(callers.filter((file) => file.startsWith("history-writes/")).length).toBeGreaterThan(0);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "generated" || name === "client" ? [] : sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}
