// Connect storms (issue 32): thousands of subscribers opening at once must not starve `/health`
// and `/ready`, or the load balancer takes the instance out. Subscriptions wait for a turn to
// start (a few per turn of the event loop, a bounded number starting at once, a bounded queue
// beyond which they are refused with SUBSCRIPTIONS_BUSY and a jittered retryAfterMs), and the
// subscribers of one dialog start together so they share their start-up reads.
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createSubscriptionPacing, type Turn } from "../src/connections/subscription-pacing.js";
import type { RunningServer } from "../src/server/http-server.js";
import { turn } from "./support/dialogs.js";
import { startTestServer } from "./support/live.js";
import { until } from "./support/until.js";

const HISTORY = `subscription($dialogId: ID!, $afterSeq: Int) {
  historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) { seq }
}`;

interface Outcome {
  first: Promise<{ seq: number } | { code: string; retryAfterMs?: number }>;
  socket: WebSocket;
}

/** Opens a graphql-ws socket and subscribes `count` times on it; each outcome is its first answer. */
function subscribeOn(server: RunningServer, dialogId: string, count: number): Outcome[] {
  const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
  const settle = new Map<string, (outcome: Awaited<Outcome["first"]>) => void>();
  const outcomes = Array.from({ length: count }, (_, i) => ({
    socket,
    first: new Promise<Awaited<Outcome["first"]>>((resolve) => settle.set(String(i + 1), resolve)),
  }));
  socket.once("open", () => socket.send(JSON.stringify({ type: "connection_init" })));
  socket.on("message", (raw) => {
    const message = JSON.parse(String(raw)) as {
      type: string;
      id?: string;
      payload?: { data: { historyDelta: { seq: number } } } & [{ extensions: { code: string } }];
    };
    if (message.type === "connection_ack") {
      for (let i = 1; i <= count; i++)
        socket.send(
          JSON.stringify({
            id: String(i),
            type: "subscribe",
            payload: { query: HISTORY, variables: { dialogId, afterSeq: 0 } },
          }),
        );
    } else if (message.type === "next") settle.get(message.id!)?.(message.payload!.data.historyDelta);
    else if (message.type === "error") settle.get(message.id!)?.(message.payload![0].extensions);
  });
  return outcomes;
}

describe("subscription starts are paced", () => {
  it("while hundreds of subscriptions wait for their turn, /health and /ready answer", async () => {
    const server = await startTestServer({
      limits: {
        subscriptionStarts: {
          perTick: 1,
          maxStarting: 2,
          maxStartingPerTenant: 2,
          maxWaiting: 10_000,
          upgradesPerTick: 4,
        },
      },
    });
    const { dialogId } = await turn({ input: [{ human: { content: "Hello" } }], output: [{ ai: { content: "Hi" } }] });
    const SOCKETS = 40;
    const PER_SOCKET = 5;
    const outcomes = Array.from({ length: SOCKETS }, () => subscribeOn(server, dialogId, PER_SOCKET)).flat();
    let started = 0;
    for (const outcome of outcomes) void outcome.first.then(() => started++);
    try {
      await until(() => server.subscriptionStarts.waiting >= 60, "sixty subscriptions waiting for their turn");
      const [health, ready] = await Promise.all([fetch(`${server.url}/health`), fetch(`${server.url}/ready`)]);
      // Answered while subscriptions still wait: the checks did not queue behind them.
      const stillWaiting = server.subscriptionStarts.waiting;
      expect([health.status, ready.status]).toEqual([200, 200]);
      expect(stillWaiting).toBeGreaterThan(0);
      expect(started).toBeLessThan(SOCKETS * PER_SOCKET);
      // And every one of them starts in the end, never more than two at a time.
      const firsts = await Promise.all(outcomes.map((outcome) => outcome.first));
      expect(firsts.every((first) => "seq" in first && first.seq === 2)).toBe(true);
      expect(server.subscriptionStarts).toMatchObject({ waiting: 0, starting: 0 });
    } finally {
      for (const { socket } of outcomes) socket.terminate();
    }
  });

  it("beyond MAX_SUBSCRIPTIONS_WAITING a subscription is refused with SUBSCRIPTIONS_BUSY and a retryAfterMs; retried, it starts", async () => {
    const server = await startTestServer({
      limits: {
        subscriptionStarts: { perTick: 1, maxStarting: 1, maxStartingPerTenant: 1, maxWaiting: 3, upgradesPerTick: 16 },
      },
    });
    const { dialogId } = await turn({ input: [{ human: { content: "Hello" } }], output: [{ ai: { content: "Hi" } }] });
    const outcomes = subscribeOn(server, dialogId, 12);
    try {
      const firsts = await Promise.all(outcomes.map((outcome) => outcome.first));
      const refused = firsts.filter((first) => "code" in first);
      expect(refused.length).toBeGreaterThan(0);
      for (const refusal of refused) {
        expect(refusal).toMatchObject({ code: "SUBSCRIPTIONS_BUSY" });
        expect((refusal as { retryAfterMs: number }).retryAfterMs).toBeGreaterThanOrEqual(500);
        expect((refusal as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(2_000);
      }
      expect(firsts.filter((first) => "seq" in first)).toHaveLength(12 - refused.length);
      // Asked again when nothing else waits, each refused one starts.
      for (const _ of refused) {
        const [again] = subscribeOn(server, dialogId, 1);
        expect(await again!.first).toEqual({ seq: 2 });
        again!.socket.terminate();
      }
    } finally {
      outcomes[0]!.socket.terminate();
    }
  });
});

describe("the pacing itself", () => {
  const paced = (limits: {
    perTick: number;
    maxStarting: number;
    maxWaiting: number;
    maxStartingPerTenant?: number;
  }) => {
    const ticks: (() => void)[] = [];
    const pacing = createSubscriptionPacing({ maxStartingPerTenant: limits.maxStarting, ...limits }, (pump) =>
      ticks.push(pump),
    );
    const tick = async () => {
      ticks.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { pacing, tick, ticks };
  };
  const enter = (
    pacing: ReturnType<typeof createSubscriptionPacing>,
    key: string,
    log: string[],
    gone = false,
    tenantId = "t",
  ) => {
    const entered = pacing.enter(key, tenantId, () => gone);
    if (!entered) return "refused";
    return entered.then((turn) => {
      log.push(turn ? key : `${key} gone`);
      return turn;
    });
  };

  it("gives perTick turns per tick, at most maxStarting at once, kinds together in order of arrival", async () => {
    const { pacing, tick } = paced({ perTick: 2, maxStarting: 3, maxWaiting: 100 });
    const log: string[] = [];
    const turns = ["a", "b", "a", "c", "b", "a"].map((key) => enter(pacing, key, log)) as Promise<Turn>[];
    expect(pacing.waiting).toBe(6);
    await tick();
    expect(log).toEqual(["a", "a"]);
    await tick();
    // Three are starting: the rest wait for one to be done, whatever the ticks.
    expect(log).toEqual(["a", "a", "a"]);
    await tick();
    expect(log).toEqual(["a", "a", "a"]);
    (await turns[0]!).done();
    (await turns[0]!).done(); // twice is once
    await tick();
    expect(log).toEqual(["a", "a", "a", "b"]);
    expect(pacing).toMatchObject({ waiting: 2, starting: 3 });
  });

  it("refuses beyond maxWaiting, and a waiter whose client left takes no turn", async () => {
    const { pacing, tick } = paced({ perTick: 5, maxStarting: 5, maxWaiting: 3 });
    const log: string[] = [];
    expect([enter(pacing, "a", log, true), enter(pacing, "a", log), enter(pacing, "b", log)]).not.toContain("refused");
    expect(enter(pacing, "c", log)).toBe("refused");
    await tick();
    expect(log).toEqual(["a gone", "a", "b"]);
    expect(pacing).toMatchObject({ waiting: 0, starting: 2 });
  });

  it("gives one tenant at most maxStartingPerTenant turns: another tenant's subscriptions start while its flood waits", async () => {
    const { pacing, tick } = paced({ perTick: 10, maxStarting: 10, maxStartingPerTenant: 2, maxWaiting: 100 });
    const log: string[] = [];
    const flood = Array.from({ length: 6 }, (_, i) => enter(pacing, `a${i}`, log, false, "A")) as Promise<Turn>[];
    await tick();
    expect(log).toEqual(["a0", "a1"]);
    expect(pacing.startingOf("A")).toBe(2);
    // Tenant B arrives after the whole flood and starts at once; A's other four still wait.
    const other = enter(pacing, "b", log, false, "B") as Promise<Turn>;
    await tick();
    expect(log).toEqual(["a0", "a1", "b"]);
    expect(pacing).toMatchObject({ waiting: 4, starting: 3 });
    // A turn of A's given back lets the next of A's start.
    (await flood[0]!).done();
    await tick();
    expect(log).toEqual(["a0", "a1", "b", "a2"]);
    (await other).done();
    expect(pacing.startingOf("B")).toBe(0);
  });
});
