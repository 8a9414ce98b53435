// Resume is exact: while ten agents write to one dialog at once, a frontend keeps dropping its
// subscription at random moments and resubscribing with the last seq it has. Across all its
// subscriptions it receives every event once, in seq order, and nothing else.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import type { RunningServer } from "../src/server/http-server.js";
import { writer } from "./support/dialogs.js";
import { type DeltaData, HISTORY_DELTA, httpExecutor, startTestServer, wsClient } from "./support/live.js";

const WRITERS = 10;
const EVENTS_PER_WRITER = 50;
const TOTAL = WRITERS * EVENTS_PER_WRITER;

let server: RunningServer;
let write: ReturnType<typeof writer>;
let run: ReturnType<typeof httpExecutor>;

beforeAll(async () => {
  server = await startTestServer();
  run = httpExecutor(server);
  write = writer(run);
});

/** A small seeded generator, so a failing interleaving can be replayed with its seed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/** One agent: a response with one input event, then output in batches of 1-6 events, then done. */
async function agent(dialogId: string, index: number, next: () => number) {
  const started = await write.createResponse({ dialogId, input: [{ human: { content: `task ${index}` } }] });
  expect(started.__typename).toBe("Response");
  let written = 1;
  while (written < EVENTS_PER_WRITER) {
    const size = Math.min(1 + Math.floor(next() * 6), EVENTS_PER_WRITER - written);
    const events = Array.from({ length: size }, (_, i) => ({ ai: { content: `agent ${index} step ${written + i}` } }));
    const appended = await write.appendEvents({ responseId: started.id, events });
    expect(appended.__typename).toBe("Response");
    written += size;
  }
  expect((await write.completeResponse({ responseId: started.id })).status).toBe("COMPLETED");
}

describe("historyDelta resume", () => {
  it(`10 concurrent writers, ${TOTAL} events, a subscriber that keeps reconnecting: seq 1..${TOTAL} once each, in order`, async () => {
    const seed = Date.now() % 100_000;
    const next = random(seed);
    const dialog = await run(`mutation { createDialog(input: {title: "busy"}) { ... on Dialog { id } } }`);
    const dialogId: string = dialog.createDialog.id;

    const writing = Promise.all(Array.from({ length: WRITERS }, (_, i) => agent(dialogId, i, random(seed + i + 1))));

    const received: { seq: number; id: string }[] = [];
    let subscriptions = 0;
    let client = wsClient(server);
    // Bounded: every subscription takes at least one delta, and there are at most TOTAL + WRITERS.
    while ((received.at(-1)?.seq ?? 0) < TOTAL) {
      if (++subscriptions > TOTAL + WRITERS) throw new Error(`no progress (seed ${seed})`);
      const afterSeq = received.at(-1)?.seq ?? 0;
      const deltas = client.iterate<DeltaData>({ query: HISTORY_DELTA, variables: { dialogId, afterSeq } });
      const keep = 1 + Math.floor(next() * 8);
      for (let taken = 0; taken < keep; taken++) {
        const { value, done } = await deltas.next();
        if (done || value.errors) throw new Error(`subscription failed: ${JSON.stringify(value)} (seed ${seed})`);
        received.push(...value.data!.historyDelta.append.map(({ seq, id }) => ({ seq, id })));
        if ((received.at(-1)?.seq ?? 0) === TOTAL) break;
      }
      // Leave: politely (complete) or by dropping the socket, as a closing tab or a lost network would.
      if (next() < 0.5) {
        await deltas.return?.();
      } else {
        client.terminate();
        client = wsClient(server);
      }
    }
    await writing;

    expect(
      received.map((e) => e.seq),
      `seed ${seed}`,
    ).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    const stored = await prisma.event.findMany({ where: { dialogId }, orderBy: { seq: "asc" }, select: { id: true } });
    expect(received.map((e) => e.id)).toEqual(stored.map((e) => e.id));
    expect(subscriptions).toBeGreaterThan(1);
  });
});
