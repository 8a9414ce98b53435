// Child process: a connect storm through a load balancer, for `npm run bench:cluster`. SUBSCRIBERS
// graphql-ws sockets opened all at once, spread over WS_URLS (load balancers), subscriber i watching dialog i % DIALOGS (the
// dialog ids in DIALOG_IDS). Each dialog starts with one turn whose delta is (SEED_PREVIOUS_SEQ,
// SEED_SEQ]. A subscription asks for everything after the previousSeq of the last delta it holds, so
// its first message is that delta again: the sign that it is live (not a duplicate), on the first
// subscription and on every resubscription, which times how long a subscriber was without one.
// Each socket learns its instance from the load balancer's `X-Served-By` on the upgrade answer,
// and every delta it gets is kept with that instance. A subscription refused as busy, or a socket
// closed, reconnects after its retry delay with jitter, as the project's own client does.
//
// Messages: `storm` opens every socket, `ready` says when all are live; `status` counts the live
// ones; `resumed` reports (and
// forgets) the resubscriptions since the last one; `finish` with the committed deltas reports, per
// delta, the subscribers of its dialog that missed it or got it twice, and latencies.
import WebSocket from "ws";
import { summarize } from "../lib/stats.js";

const urls = process.env.WS_URLS!.split(",");
const subscribers = Number(process.env.SUBSCRIBERS);
const dialogIds = process.env.DIALOG_IDS!.split(",");
const seedSeq = Number(process.env.SEED_SEQ);
const seedPreviousSeq = Number(process.env.SEED_PREVIOUS_SEQ);
const now = () => performance.timeOrigin + performance.now();

const SUBSCRIPTION = `subscription($dialogId: ID!, $afterSeq: Int) {
  historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
    seq previousSeq
    append { __typename ... on BaseHistoryEvent { id seq } }
  }
}`;

/** A committed delta as the writer saw it (or, for one it never heard back about, as the database has it). */
export interface Committed {
  dialog: number;
  seq: number;
  /** When the write was sent, and by which instance it was committed ("" when unknown). */
  sentAt: number | null;
  instance: string;
  phase: string;
}

interface Arrival {
  at: number;
  instance: string;
  /** Which of the subscriber's subscriptions (0, 1, … after each resubscription) it came on. */
  generation: number;
}

const dialogOf = (index: number) => index % dialogIds.length;
/** Per subscriber: each seq it got, with every arrival (more than one is a duplicate). */
const arrivals = Array.from({ length: subscribers }, () => new Map<number, Arrival[]>());
const lastSeq = new Array<number>(subscribers).fill(seedSeq);
const lastPreviousSeq = new Array<number>(subscribers).fill(seedPreviousSeq);
const instanceOf = new Array<string>(subscribers).fill("");
const generationOf = new Array<number>(subscribers).fill(-1);
/** The seq whose replay says a (re)subscription is live; null once it came. */
const liveSign = new Array<number | null>(subscribers).fill(null);
const live = new Array<boolean>(subscribers).fill(false);
let liveCount = 0;
let stormStarted = 0;
let refusedBusy = 0;
let failedOther = 0;
let closedBeforeLive = 0;
let reconnects = 0;
let stopping = false;
const sockets: (WebSocket | null)[] = new Array(subscribers).fill(null);
const lostAt = new Map<number, number>();
let resumeMs: number[] = [];
const perInstance = () => {
  const counts: Record<string, number> = {};
  for (let i = 0; i < subscribers; i++) if (live[i]) counts[instanceOf[i]!] = (counts[instanceOf[i]!] ?? 0) + 1;
  return counts;
};

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
    const stormMs = now() - stormStarted;
    stormStarted = 0;
    process.send!({ type: "ready", stormMs, refusedBusy, failedOther, closedBeforeLive, perInstance: perInstance() });
  }
}

function lost(index: number) {
  if (!live[index]) return;
  live[index] = false;
  liveCount--;
  lostAt.set(index, now());
}

function received(index: number, seq: number) {
  if (liveSign[index] !== null && seq === liveSign[index]) {
    liveSign[index] = null;
    becameLive(index);
    return;
  }
  // A delta before the sign would mean the replay is not in order: count it, and the
  // subscription is live all the same.
  liveSign[index] = null;
  becameLive(index);
  let times = arrivals[index]!.get(seq);
  if (!times) arrivals[index]!.set(seq, (times = []));
  times.push({ at: now(), instance: instanceOf[index]!, generation: generationOf[index]! });
  if (seq > lastSeq[index]!) {
    lastSeq[index] = seq;
    // Every turn of the bench is two events, so its delta starts two seqs back (a delta's own
    // previousSeq is the last seq sent to this subscriber, which may be further back).
    lastPreviousSeq[index] = seq - 2;
  }
}

function connect(index: number, attempt = 0) {
  if (stopping) return;
  const dialogId = dialogIds[dialogOf(index)]!;
  const socket = new WebSocket(urls[index % urls.length]!, "graphql-transport-ws");
  sockets[index] = socket;
  let retried = false;
  const retry = () => {
    if (retried || stopping) return;
    retried = true;
    socket.removeAllListeners();
    socket.on("error", () => undefined);
    socket.terminate();
    lost(index);
    reconnects++;
    setTimeout(() => connect(index, attempt + 1), retryDelay(attempt));
  };
  socket.on("upgrade", (response) => (instanceOf[index] = String(response.headers["x-served-by"] ?? "?")));
  socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init" })));
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as { type: string; payload?: any };
    if (message.type === "connection_ack") {
      liveSign[index] = lastSeq[index]!;
      generationOf[index]!++;
      socket.send(
        JSON.stringify({
          id: "1",
          type: "subscribe",
          payload: { query: SUBSCRIPTION, variables: { dialogId, afterSeq: lastPreviousSeq[index] } },
        }),
      );
    } else if (message.type === "next") {
      const delta = message.payload.data?.historyDelta;
      if (!delta) {
        const code = message.payload.errors?.[0]?.extensions?.code;
        if (code === "SUBSCRIPTIONS_BUSY") refusedBusy++;
        else failedOther++;
        return retry();
      }
      attempt = 0;
      received(index, delta.seq);
    } else if (message.type === "error") {
      if (message.payload?.[0]?.extensions?.code === "SUBSCRIPTIONS_BUSY") refusedBusy++;
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

function report(committed: Committed[]) {
  const latencies = new Map<string, number[]>();
  const add = (key: string, ms: number) => {
    let list = latencies.get(key);
    if (!list) latencies.set(key, (list = []));
    list.push(ms);
  };
  let lost = 0;
  let duplicated = 0;
  /** Duplicates that came twice on one subscription (the server's doing), not across a resubscription. */
  let duplicatedWithinSubscription = 0;
  const lostByPhase: Record<string, number> = {};
  const duplicatedByPhase: Record<string, number> = {};
  const examples: string[] = [];
  for (const delta of committed) {
    for (let index = delta.dialog; index < subscribers; index += dialogIds.length) {
      const times = arrivals[index]!.get(delta.seq) ?? [];
      if (times.length === 0) {
        lost++;
        lostByPhase[delta.phase] = (lostByPhase[delta.phase] ?? 0) + 1;
        if (examples.length < 10)
          examples.push(
            `lost: subscriber ${index} (${instanceOf[index]}, live ${live[index]}) dialog ${dialogIds[delta.dialog]} seq ${delta.seq} (${delta.phase}, written on ${delta.instance || "?"})`,
          );
      }
      if (times.length > 1) {
        duplicated += times.length - 1;
        duplicatedWithinSubscription += times.length - new Set(times.map((t) => t.generation)).size;
        duplicatedByPhase[delta.phase] = (duplicatedByPhase[delta.phase] ?? 0) + times.length - 1;
        if (examples.length < 10)
          examples.push(
            `duplicated ×${times.length}: subscriber ${index} dialog ${dialogIds[delta.dialog]} seq ${delta.seq} (${delta.phase}) on ${times.map((t) => `${t.instance}#${t.generation}`).join(",")} (now #${generationOf[index]}, last seq ${lastSeq[index]})`,
          );
      }
      if (delta.sentAt === null || !delta.instance || !times[0]) continue;
      const where = times[0].instance === delta.instance ? "same" : "cross";
      add(`${delta.phase}/${where}`, times[0].at - delta.sentAt);
    }
  }
  const delivery: Record<string, ReturnType<typeof summarize>> = {};
  for (const [key, list] of latencies) delivery[key] = summarize(list);
  return { lost, duplicated, duplicatedWithinSubscription, lostByPhase, duplicatedByPhase, examples, delivery };
}

process.on("message", (message: { type: string; committed?: Committed[] }) => {
  if (message.type === "storm") {
    stormStarted = now();
    for (let i = 0; i < subscribers; i++) connect(i);
  } else if (message.type === "status") {
    process.send!({ type: "status", live: liveCount, stillOut: lostAt.size });
  } else if (message.type === "resumed") {
    process.send!({
      type: "resumed",
      resubscribed: resumeMs.length,
      stillOut: lostAt.size,
      live: liveCount,
      ...summarize(resumeMs),
      perInstance: perInstance(),
    });
    resumeMs = [];
  } else if (message.type === "finish") {
    stopping = true;
    for (const socket of sockets) socket?.terminate();
    process.send!({
      type: "result",
      live: liveCount,
      reconnects,
      refusedBusy,
      failedOther,
      ...report(message.committed!),
    });
    setTimeout(() => process.exit(0), 200);
  }
});
process.send!({ type: "started" });
