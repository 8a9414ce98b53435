// Issue 29, finding 5: a historyDelta subscription whose instance cannot read its history (the
// database gone for a while) ends with an UNAVAILABLE error instead of skipping what it could not
// read: no delta it sends ever has a previousSeq ahead of what that subscriber was sent. A client
// written to the docs — apply a delta whose previousSeq is what it holds, ignore one it has, and
// subscribe again with afterSeq when the stream ends — then has every seq once. Tested on SSE and
// graphql-ws, with the subscriber's instance cut from its database (a proxy) while another instance
// keeps writing (its deltas reach the subscriber's instance through Redis), and through a restart
// of the proxy's connections (every connection dropped at once, as a PostgreSQL restart does).
// The writes made during the outage are too large to travel with their Redis message
// (src/live/delta-carriage.ts), so the subscriber's instance must read them from its database:
// every subscriber meets the outage, which is the path the fix is about.
import { print } from "graphql";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { graphql } from "../src/client/generated/index.js";
import { startServer, type RunningServer } from "../src/server/http-server.js";
import type { Store } from "../src/store/store.js";
import { testConfig, store } from "./support/database.js";
import { CARRY_LIMIT_BYTES } from "../src/live/delta-carriage.js";
import { httpExecutor } from "./support/live.js";
import { startOwnRedis } from "./support/redis-server.js";
import { openProxiedStore, type TcpProxy } from "./support/proxied-store.js";
import { until } from "./support/until.js";

const runs = Boolean(process.env.TEST_DATABASE_URL);
const title = runs
  ? "subscriptions through a database outage"
  : "subscriptions through a database outage (skipped: need TEST_DATABASE_URL)";

const DELTAS = graphql(`
  subscription OutageHistoryDelta($dialogId: ID!, $afterSeq: Int) {
    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
      seq
      previousSeq
    }
  }
`);

const WRITE = graphql(`
  mutation OutageWrite($input: CreateResponseInput!) {
    createResponse(input: $input) {
      ... on Response {
        dialog {
          id
        }
      }
    }
  }
`);

interface Delta {
  seq: number;
  previousSeq: number;
}

/**
 * A client written to docs/live-history.md with no library: holds `seq`, applies a delta whose
 * previousSeq is what it holds, ignores one it already has, and resubscribes with afterSeq when the
 * stream ends or fails. Records any delta that skipped ahead of what it held.
 */
function docsClient(server: RunningServer, transport: "sse" | "ws", dialogId: string) {
  const state = { held: 0, skips: [] as { held: number; delta: Delta }[], errors: [] as string[], ends: 0 };
  let stopped = false;
  let dispose = () => undefined as unknown;
  const subscribeOnce = () =>
    new Promise<void>((resolve) => {
      const request = { query: print(DELTAS), variables: { dialogId, afterSeq: state.held } };
      const sink = {
        next: (result: { data?: { historyDelta?: Delta | null } | null; errors?: readonly unknown[] }) => {
          for (const error of result.errors ?? [])
            state.errors.push(String((error as { extensions?: { code?: string } }).extensions?.code));
          const delta = result.data?.historyDelta;
          if (!delta) return;
          if (delta.previousSeq > state.held) state.skips.push({ held: state.held, delta });
          if (delta.seq > state.held) state.held = delta.seq;
        },
        error: () => resolve(),
        complete: () => resolve(),
      };
      if (transport === "sse") {
        const client = createSseClient({ url: `${server.url}/graphql`, retryAttempts: 0 });
        const unsubscribe = client.subscribe(request, sink as never);
        dispose = () => {
          unsubscribe();
          client.dispose();
        };
      } else {
        const client = createWsClient({
          url: `${server.url.replace(/^http/, "ws")}/graphql`,
          webSocketImpl: WebSocket,
          retryAttempts: 0,
          lazy: true,
          on: { closed: () => resolve() },
        });
        const unsubscribe = client.subscribe(request, sink as never);
        dispose = () => {
          unsubscribe();
          void client.dispose();
        };
      }
    });
  const loop = (async () => {
    while (!stopped) {
      await subscribeOnce();
      state.ends++;
      dispose();
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 100)); // a client's backoff
    }
  })();
  return {
    state,
    async stop() {
      stopped = true;
      dispose();
      await loop;
    },
  };
}

describe.runIf(runs)(title, () => {
  let proxied: Store;
  let proxy: TcpProxy;
  beforeAll(async () => {
    ({ store: proxied, proxy } = await openProxiedStore(500));
  });
  afterAll(() => proxied?.close());

  it("the subscriber's database goes away while another instance writes: no delta skips ahead, on SSE or graphql-ws", async () => {
    const redis = await startOwnRedis();
    const subscribed = await startServer({ store: proxied, config: testConfig, port: 0, redisUrl: redis.url });
    const writer = await startServer({ store, config: testConfig, port: 0, redisUrl: redis.url });
    try {
      const write = httpExecutor(writer);
      const first = await write(WRITE, { input: { input: [{ human: { content: "first" } }] } });
      const dialogId = (first.createResponse as { dialog: { id: string } }).dialog.id;
      const clients = (["sse", "ws"] as const).map((transport) => docsClient(subscribed, transport, dialogId));
      await until(() => clients.every((client) => client.state.held === 1), "both subscribed and caught up");

      let seq = 1;
      const writeOne = async (chars = 10) => {
        const content = `w${seq}`.padEnd(chars, ".");
        await write(WRITE, { input: { dialogId, input: [{ human: { content } }] } });
        seq++;
      };
      // The subscriber's instance loses its database; the writer goes on, with deltas its Redis
      // messages cannot carry, which the subscriber's instance can only read from its database.
      await proxy.stop();
      for (let i = 0; i < 5; i++) await writeOne(CARRY_LIMIT_BYTES + 1_000);
      // Each subscriber met the outage: an error, or its stream ended.
      await until(() => clients.every((c) => c.state.errors.length > 0 || c.state.ends > 0), "the outage met");
      expect(clients.map((c) => c.state.held)).toEqual([1, 1]);
      // Small writes meanwhile travel with their events: a subscription that skipped what it could
      // not read would now be handed a delta ahead of what its client holds.
      for (let i = 0; i < 5; i++) await writeOne();

      await proxy.start();
      for (let i = 0; i < 5; i++) await writeOne();
      // A restart: every connection dropped at once, then writes go on.
      await proxy.stop();
      await proxy.start();
      for (let i = 0; i < 5; i++) await writeOne();

      await until(() => clients.every((client) => client.state.held === seq), `both reach seq ${seq}`, 30_000);
      for (const client of clients) {
        expect(client.state.skips).toEqual([]);
        expect([...new Set(client.state.errors)].filter((code) => code !== "UNAVAILABLE")).toEqual([]);
        await client.stop();
      }
    } finally {
      await subscribed.close();
      await writer.close();
      await redis.kill();
    }
  });
});
