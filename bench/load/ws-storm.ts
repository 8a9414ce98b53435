// Child process: a connect storm. SUBSCRIBERS graphql-ws sockets opened all at once (no batching,
// unlike ws-subscribers.ts), spread over DIALOG_IDS (comma-separated) and over WS_URLS (one or
// more, comma-separated), each subscribing to its dialog's historyDelta after AFTER_SEQ so the
// replayed delta says it is live. A socket whose subscription is refused as busy (code
// SUBSCRIPTIONS_BUSY), or which is closed, reconnects after its retry delay with jitter, as the
// project's own client does. Tells the parent `ready` with the storm's duration once every
// subscriber is live; afterwards reports resubscribes (a socket closed by its server, as when an
// instance is killed, opens again) with how long each took; on `finish` the per-seq tally.
import WebSocket from "ws";
import { createDeliveryTally } from "../lib/delivery-tally.js";
import { summarize } from "../lib/stats.js";

const urls = process.env.WS_URLS!.split(",");
const subscribers = Number(process.env.SUBSCRIBERS);
const dialogIds = process.env.DIALOG_IDS!.split(",");
const afterSeq = Number(process.env.AFTER_SEQ ?? 0);
const phased = process.env.PHASED === "1";
const now = () => performance.timeOrigin + performance.now();

const SUBSCRIPTION = `subscription($dialogId: ID!, $afterSeq: Int) {
  historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
    dialogId responseId seq previousSeq status
    append { __typename ... on BaseHistoryEvent { id seq type createdAt } ... on HumanEvent { content } ... on AiEvent { content } }
  }
}`;

const tally = createDeliveryTally(subscribers);
const lastSeq = new Array<number>(subscribers).fill(afterSeq);
const live = new Array<boolean>(subscribers).fill(false);
let liveCount = 0;
let stormStarted = 0;
let refusedBusy = 0;
let closedBeforeLive = 0;
let failedOther = 0;
let stopping = false;
let subscribeNow = false;
const acked: (() => void)[] = [];
const sockets: (WebSocket | null)[] = new Array(subscribers).fill(null);
/** When each subscriber lost its subscription, while it has not got it back. */
const lostAt = new Map<number, number>();
const resumeMs: number[] = [];

const retryDelay = (attempt: number) => Math.min(250 * 2 ** attempt, 5_000) * (0.5 + Math.random());

function becameLive(index: number) {
  if (live[index]) return;
  live[index] = true;
  const since = lostAt.get(index);
  if (since !== undefined) {
    lostAt.delete(index);
    resumeMs.push(now() - since);
  }
  if (++liveCount === subscribers && stormStarted) {
    process.send!({ type: "ready", stormMs: now() - stormStarted, refusedBusy, failedOther, closedBeforeLive });
    stormStarted = 0;
  }
}

function lost(index: number) {
  if (live[index]) {
    live[index] = false;
    liveCount--;
    lostAt.set(index, now());
  }
}

function connect(index: number, attempt = 0) {
  if (stopping) return;
  const url = urls[index % urls.length]!;
  const dialogId = dialogIds[index % dialogIds.length]!;
  const socket = new WebSocket(url, "graphql-transport-ws");
  sockets[index] = socket;
  let retried = false;
  const retry = () => {
    if (retried || stopping) return;
    retried = true;
    socket.removeAllListeners();
    socket.on("error", () => undefined);
    socket.terminate();
    lost(index);
    setTimeout(() => connect(index, attempt + 1), retryDelay(attempt));
  };
  const subscribe = () =>
    socket.send(
      JSON.stringify({
        id: "1",
        type: "subscribe",
        payload: { query: SUBSCRIPTION, variables: { dialogId, afterSeq: lastSeq[index] } },
      }),
    );
  socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init" })));
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as { type: string; payload?: any };
    if (message.type === "connection_ack") {
      // PHASED=1: every socket is acknowledged before any subscribes (the parent times the two).
      if (phased && !subscribeNow) {
        acked.push(subscribe);
        if (acked.length === subscribers) process.send!({ type: "acked" });
      } else subscribe();
    } else if (message.type === "next") {
      const delta = message.payload.data?.historyDelta;
      if (!delta) {
        const code = message.payload.errors?.[0]?.extensions?.code;
        if (code === "SUBSCRIPTIONS_BUSY") refusedBusy++;
        else failedOther++;
        return retry();
      }
      if (tally.see(index, delta.seq) === 0 && delta.seq > afterSeq + 1) tally.arrive(delta.seq);
      lastSeq[index] = Math.max(lastSeq[index]!, delta.seq);
      attempt = 0;
      becameLive(index);
    } else if (message.type === "error") {
      const code = message.payload?.[0]?.extensions?.code;
      if (code === "SUBSCRIPTIONS_BUSY") refusedBusy++;
      else failedOther++;
      retry();
    } else if (message.type === "complete") {
      retry();
    } else if (message.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
  });
  socket.on("close", () => {
    if (!live[index]) closedBeforeLive++;
    retry();
  });
  socket.on("error", () => retry());
}

process.on("message", (message: { type: string; committedAt?: [number, number][] }) => {
  if (message.type === "storm") {
    stormStarted = now();
    for (let i = 0; i < subscribers; i++) connect(i);
  } else if (message.type === "subscribe") {
    subscribeNow = true;
    for (const subscribe of acked.splice(0)) subscribe();
  } else if (message.type === "resumed") {
    // How long the subscribers that lost their subscription took to get it back.
    process.send!({ type: "resumed", lost: lostAt.size + resumeMs.length, ...summarize(resumeMs) });
  } else if (message.type === "finish") {
    stopping = true;
    for (const socket of sockets) socket?.terminate();
    const report = tally.report(new Map(message.committedAt));
    process.send!({ type: "result", ...report, live: liveCount });
    setTimeout(() => process.exit(0), 200);
  }
});
process.send!({ type: "started" });
