// What the connect-storm children (bench/load/ws-storm.ts, bench/load/cluster-subscribers.ts)
// share: SUBSCRIBERS graphql-ws sockets opened all at once over WS_URLS, each subscribing once
// acknowledged; a subscription refused (SUBSCRIPTIONS_BUSY or another error), completed, or a
// socket closed reconnects after its retry delay (below), as a client should.
// Keeps which subscribers are live, tells the parent `ready` once all are (with the storm's
// duration), and times how long each subscriber that lost its subscription took to get it back.
import WebSocket from "ws";
import { defaultRetryDelay } from "../../src/client/reconnect-policy.js";

export interface StormOptions {
  subscribers: number;
  urls: string[];
  query: string;
  /** The subscription's variables for subscriber `index`, asked at each (re)subscription. */
  variables(index: number): Record<string, unknown>;
  /** The socket is acknowledged: subscribe now (the default) or later. */
  onAck?(index: number, subscribe: () => void): void;
  /**
   * A delta arrived on subscriber `index`'s subscription: the subscriber is then live, unless this
   * returns false (a delta replayed before the one that says it is live).
   */
  onDelta(index: number, delta: any): boolean | void;
  /** The answer to the socket's upgrade (which instance served it). */
  onUpgrade?(index: number, response: import("node:http").IncomingMessage): void;
  /** More fields of the `ready` message. */
  readyExtras?(): Record<string, unknown>;
}

const now = () => performance.timeOrigin + performance.now();
// What a client should do (src/client/reconnect-policy.ts): wait a random share of a ceiling that
// doubles from 250 ms, so the subscribers of an instance that died come back spread out and the
// first at once; a refusal that says when to come back (SUBSCRIPTIONS_BUSY's retryAfterMs) is
// followed instead.
const retryDelay = (attempt: number, retryAfterMs?: unknown) =>
  typeof retryAfterMs === "number" ? retryAfterMs : defaultRetryDelay(attempt + 1);

export function createSubscriberStorm(options: StormOptions) {
  const { subscribers, urls, query } = options;
  const live = new Array<boolean>(subscribers).fill(false);
  const sockets: (WebSocket | null)[] = new Array(subscribers).fill(null);
  /** When each subscriber lost its subscription, while it has not got it back. */
  const lostAt = new Map<number, number>();
  const state = {
    live,
    liveCount: 0,
    refusedBusy: 0,
    failedOther: 0,
    closedBeforeLive: 0,
    reconnects: 0,
    lostAt,
    /** How long each subscriber that got its subscription back was without it. */
    resumeMs: [] as number[],
  };
  let stormStarted = 0;
  let stopping = false;

  function becameLive(index: number) {
    if (live[index]) return;
    live[index] = true;
    const since = lostAt.get(index);
    if (since !== undefined) {
      lostAt.delete(index);
      state.resumeMs.push(now() - since);
    }
    if (++state.liveCount === subscribers && stormStarted) {
      const { refusedBusy, failedOther, closedBeforeLive } = state;
      const stormMs = now() - stormStarted;
      stormStarted = 0;
      process.send!({ type: "ready", stormMs, refusedBusy, failedOther, closedBeforeLive, ...options.readyExtras?.() });
    }
  }

  function lost(index: number) {
    if (!live[index]) return;
    live[index] = false;
    state.liveCount--;
    lostAt.set(index, now());
  }

  const refused = (extensions: { code?: unknown } | undefined) =>
    extensions?.code === "SUBSCRIPTIONS_BUSY" ? state.refusedBusy++ : state.failedOther++;

  function connect(index: number, attempt = 0) {
    if (stopping) return;
    const socket = new WebSocket(urls[index % urls.length]!, "graphql-transport-ws");
    sockets[index] = socket;
    let retried = false;
    let retryAfterMs: unknown;
    const retry = () => {
      if (retried || stopping) return;
      retried = true;
      socket.removeAllListeners();
      socket.on("error", () => undefined);
      socket.terminate();
      lost(index);
      state.reconnects++;
      setTimeout(() => connect(index, attempt + 1), retryDelay(attempt, retryAfterMs));
    };
    const subscribe = () =>
      socket.send(
        JSON.stringify({ id: "1", type: "subscribe", payload: { query, variables: options.variables(index) } }),
      );
    if (options.onUpgrade) socket.on("upgrade", (response) => options.onUpgrade!(index, response));
    socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init" })));
    socket.on("message", (data) => {
      const message = JSON.parse(data.toString()) as { type: string; payload?: any };
      if (message.type === "connection_ack") {
        if (options.onAck) options.onAck(index, subscribe);
        else subscribe();
      } else if (message.type === "next") {
        const delta = message.payload.data?.historyDelta;
        if (!delta) {
          const extensions = message.payload.errors?.[0]?.extensions;
          refused(extensions);
          retryAfterMs = extensions?.retryAfterMs;
          return retry();
        }
        if (options.onDelta(index, delta) === false) return;
        attempt = 0;
        becameLive(index);
      } else if (message.type === "error") {
        const extensions = message.payload?.[0]?.extensions;
        refused(extensions);
        retryAfterMs = extensions?.retryAfterMs;
        retry();
      } else if (message.type === "complete") {
        retry();
      } else if (message.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
    });
    socket.on("close", () => {
      if (!live[index]) state.closedBeforeLive++;
      retry();
    });
    socket.on("error", () => retry());
  }

  return {
    state,
    /** Opens every socket at once. */
    storm() {
      stormStarted = now();
      for (let i = 0; i < subscribers; i++) connect(i);
    },
    /** Closes every socket, for good. */
    stop() {
      stopping = true;
      for (const socket of sockets) socket?.terminate();
    },
  };
}
