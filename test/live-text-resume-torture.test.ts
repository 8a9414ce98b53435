// Resume torture for in-flight text: three agents stream reasoning and answers into one dialog
// (each a branch of it) while four subscribers keep dropping their subscriptions at random moments
// and resubscribing with the seq and text offsets they hold — hundreds of times in all. Each ends
// holding exactly the committed events, no in-flight text, and never received a character twice
// or with a gap before it. The interleaving comes from a seeded generator (printed on failure).
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import type { RunningServer } from "../src/server/http-server.js";
import { writer } from "./support/dialogs.js";
import { httpExecutor, startTestServer, wsClient } from "./support/live.js";
import { STREAM_TEXT, TextSubscriber, wsIterate } from "./support/text-stream.js";

const AGENTS = 3;
const STEPS_PER_AGENT = 4; // reasoning, answer, reasoning, answer
const SUBSCRIBERS = 4;
const RECONNECTS_PER_SUBSCRIBER = 60;

let server: RunningServer;
let run: ReturnType<typeof httpExecutor>;

beforeAll(async () => {
  server = await startTestServer();
  run = httpExecutor(server);
});

function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

async function agent(dialogId: string, index: number, next: () => number) {
  const write = writer(run);
  const started = await write.createResponse({ dialogId, input: [{ human: { content: `question ${index}` } }] });
  expect(started.__typename).toBe("Response");
  for (let step = 0; step < STEPS_PER_AGENT; step++) {
    const type = step % 2 ? "AI" : "REASONING";
    let length = 0;
    const deltas = 10 + Math.floor(next() * 30);
    for (let i = 0; i < deltas; i++) {
      const delta = `${"étoile".slice(0, 1 + Math.floor(next() * 6))}${index}.${step}.${i} `;
      const { streamText } = await run(STREAM_TEXT, { input: { responseId: started.id, type, delta, offset: length } });
      expect(streamText.__typename).toBe("TextPosition");
      length = streamText.length;
    }
    if (step < STEPS_PER_AGENT - 1)
      await run(`mutation($id: ID!) { commitText(responseId: $id) { __typename } }`, { id: started.id });
  }
  expect((await write.completeResponse({ responseId: started.id })).status).toBe("COMPLETED");
}

/** Subscribes, drops after 1-4 deltas and resumes where it was, RECONNECTS times; then stays. */
async function restlessSubscriber(dialogId: string, next: () => number, finished: () => boolean) {
  const client = wsClient(server);
  let current = new TextSubscriber(wsIterate(client), { dialogId, afterSeq: 0 });
  let reconnects = 0;
  while (reconnects < RECONNECTS_PER_SUBSCRIBER && !finished()) {
    const target = current.deltas.length + 1 + Math.floor(next() * 4);
    await current.until((s) => s.deltas.length >= target || finished());
    current.close();
    const { variables, seed } = current.resumePoint(dialogId);
    const replaced = current;
    current = new TextSubscriber(wsIterate(client), variables, seed);
    current.duplicates += replaced.duplicates;
    current.gaps += replaced.gaps;
    reconnects++;
  }
  return { subscriber: current, reconnects };
}

describe("in-flight text resume torture", () => {
  it(`${SUBSCRIBERS} subscribers reconnecting at random while ${AGENTS} agents stream end with the committed history`, async () => {
    const seed = Date.now() % 100_000;
    const dialog = await run(`mutation { createDialog(input: {title: "torture"}) { ... on Dialog { id } } }`);
    const dialogId: string = dialog.createDialog.id;
    let agentsDone = false;

    const subscribers = Array.from({ length: SUBSCRIBERS }, (_, i) =>
      restlessSubscriber(dialogId, random(seed * 7 + i), () => agentsDone),
    );
    await Promise.all(Array.from({ length: AGENTS }, (_, i) => agent(dialogId, i, random(seed + i + 1))));
    agentsDone = true;

    const committed = await prisma.event.findMany({
      where: { dialogId },
      orderBy: { seq: "asc" },
      select: { id: true, seq: true, content: true },
    });
    expect(committed).toHaveLength(AGENTS * (1 + STEPS_PER_AGENT));
    let totalReconnects = 0;
    for (const pending of subscribers) {
      const { subscriber, reconnects } = await pending;
      totalReconnects += reconnects;
      await subscriber.until((s) => s.events.length === committed.length && Object.keys(s.inFlight).length === 0);
      const context = `seed ${seed}`;
      expect(
        subscriber.events.map(({ id, seq, content }) => ({ id, seq, content })),
        context,
      ).toEqual(committed);
      expect(subscriber.inFlight, context).toEqual({});
      expect([subscriber.duplicates, subscriber.gaps], context).toEqual([0, 0]);
      subscriber.close();
    }
    expect(totalReconnects).toBeGreaterThan(100);
  });
});
