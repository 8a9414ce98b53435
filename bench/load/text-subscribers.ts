// Child process: SUBSCRIBERS graphql-ws subscriptions to one dialog's historyDelta, counting the
// text deltas each receives by offset. The parent tells it over IPC when each delta was published;
// it answers with delivery latencies and how many (subscriber, delta) pairs were missing or repeated.
import { once } from "node:events";
import WebSocket, { WebSocketServer } from "ws";
import { createDeliveryTally, openInBatches } from "../lib/delivery-tally.js";
import { rawSubscription } from "../lib/raw-graphql-ws.js";

const url = process.env.WS_URL!;
const subscribers = Number(process.env.SUBSCRIBERS);
const dialogId = process.env.DIALOG_ID!;
const afterSeq = Number(process.env.AFTER_SEQ ?? 0);

const SUBSCRIPTION = `subscription($dialogId: ID!, $afterSeq: Int) {
  historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
    seq previousSeq status endsTextPart
    text { responseId part type offset delta }
    append { __typename ... on BaseHistoryEvent { id seq } ... on AiEvent { content } }
  }
}`;

/** `count` viewers of `wsUrl`, each counting the text deltas it receives in `tally`. */
function openViewers(wsUrl: string, count: number, tally: ReturnType<typeof createDeliveryTally>) {
  let live = 0;
  const closers: (() => void)[] = [];
  function received(index: number, text: { offset: number } | null) {
    if (!text) return;
    // The first message is the text so far (offset 0): the subscription is live.
    if (text.offset === 0) return void live++;
    tally.see(index, text.offset);
    tally.arrive(text.offset);
  }
  function connect(index: number) {
    const socket = rawSubscription(
      wsUrl,
      { query: SUBSCRIPTION, variables: { dialogId, afterSeq } },
      (data) => received(index, data.historyDelta.text),
      `text ${index}`,
    );
    closers.push(() => socket.close());
  }
  return {
    opened: () => openInBatches(count, connect, () => live),
    close: () => closers.forEach((close) => close()),
  };
}

/**
 * The measuring process warmed before it measures: its receiving code (ws's frame parser, the
 * JSON, the tally) runs WARM_ROUNDS messages on each of WARM_VIEWERS sockets of a stand-in
 * server in this process, as a viewer that has been open a while has. Without it, the first
 * deltas of a run were seen 50-300 ms after the instance had written them to the last socket
 * (docs/performance.md, "The first second of a receiving instance"): the tool's own start, which
 * a real viewer (one socket in a browser that has parsed messages before) does not add.
 */
async function warmUp() {
  const WARM_VIEWERS = 50;
  const WARM_ROUNDS = 100;
  const standIn = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await once(standIn, "listening");
  const sockets: WebSocket[] = [];
  const next = (offset: number) =>
    JSON.stringify({
      id: "1",
      type: "next",
      payload: {
        data: {
          historyDelta: {
            seq: 1,
            previousSeq: 1,
            status: "IN_PROGRESS",
            endsTextPart: null,
            text: { responseId: "warm-up", part: 0, type: "AI", offset, delta: `word${offset} ` },
            append: [],
          },
        },
      },
    });
  standIn.on("connection", (socket) => {
    socket.on("message", (data) => {
      const { type } = JSON.parse(data.toString()) as { type: string };
      if (type === "connection_init") socket.send(JSON.stringify({ type: "connection_ack" }));
      if (type === "subscribe") {
        sockets.push(socket);
        socket.send(next(0));
      }
    });
  });
  const warmTally = createDeliveryTally(WARM_VIEWERS);
  const viewers = openViewers(
    `ws://127.0.0.1:${(standIn.address() as { port: number }).port}`,
    WARM_VIEWERS,
    warmTally,
  );
  await viewers.opened();
  for (let round = 1; round <= WARM_ROUNDS; round++) {
    for (const socket of sockets) socket.send(next(round));
    while (warmTally.arrivals(round) < WARM_VIEWERS) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  viewers.close();
  await new Promise((resolve) => standIn.close(resolve));
}

if (process.env.TEXT_VIEWERS_COLD !== "1") await warmUp();
const tally = createDeliveryTally(subscribers);
const viewers = openViewers(url, subscribers, tally);
await viewers.opened();
process.send!({ type: "ready" });

const publishedAt = new Map<number, number>();
process.on("message", (message: { type: string; offset?: number; at?: number }) => {
  if (message.type === "published") publishedAt.set(message.offset!, message.at!);
  if (message.type !== "finish") return;
  viewers.close();
  // Also without the first second: what a freshly started instance does while its delivery code is
  // still cold, apart from how it keeps up.
  const first = Math.min(...publishedAt.values());
  const later = new Map([...publishedAt].filter(([, at]) => at >= first + 1_000));
  const { p50, p99 } = tally.report(later);
  process.send!({
    type: "result",
    ...tally.report(publishedAt),
    deltas: publishedAt.size,
    afterFirstSecond: { p50, p99 },
    perDelta: process.env.TEXT_STAMPS ? perDelta(publishedAt) : undefined,
  });
  if (process.env.TEXT_TIMELINE) printTimeline(publishedAt, first);
  setTimeout(() => process.exit(0), 500);
});

/** TEXT_STAMPS=1: each of the first 80 deltas' latency to its first, median and last viewer here. */
function perDelta(publishedAt: Map<number, number>) {
  return [...publishedAt]
    .sort(([, a], [, b]) => a - b)
    .slice(0, 80)
    .map(([offset, at]) => ({ offset, at, ...tally.report(new Map([[offset, at]])) }));
}

/** TEXT_TIMELINE=1: delivery by when each delta was published, in 100 ms steps from the first (stderr). */
function printTimeline(publishedAt: Map<number, number>, first: number) {
  const steps = new Map<number, Map<number, number>>();
  for (const [offset, at] of publishedAt) {
    const step = Math.floor((at - first) / 100);
    if (!steps.has(step)) steps.set(step, new Map());
    steps.get(step)!.set(offset, at);
  }
  const lines = [...steps]
    .sort(([a], [b]) => a - b)
    .map(([step, sent]) => {
      const { p50, p99, max } = tally.report(sent);
      return `${String(step * 100).padStart(5)} ms: p50 ${p50.toFixed(1)} p99 ${p99.toFixed(1)} max ${max.toFixed(1)}`;
    });
  console.error(`[timeline ${url}, first published at ${first.toFixed(1)}]\n${lines.join("\n")}`);
  if (process.env.TEXT_TIMELINE !== "deltas") return;
  const each = [...publishedAt].sort(([, a], [, b]) => a - b).slice(0, 80);
  const rows = each.map(([offset, at]) => {
    const { p50, p99, max, min } = tally.report(new Map([[offset, at]]));
    return `delta ${offset} at ${at.toFixed(3)} min ${min.toFixed(1)} p50 ${p50.toFixed(1)} p99 ${p99.toFixed(1)} max ${max.toFixed(1)}`;
  });
  console.error(`[deltas ${url}]\n${rows.join("\n")}`);
}
