// Child process: SUBSCRIBERS graphql-ws subscriptions to one dialog's historyDelta, counting the
// text deltas each receives by offset. The parent tells it over IPC when each delta was published;
// it answers with delivery latencies and how many (subscriber, delta) pairs were missing or repeated.
import WebSocket from "ws";
import { createDeliveryTally, openInBatches } from "../lib/delivery-tally.js";

const url = process.env.WS_URL!;
const subscribers = Number(process.env.SUBSCRIBERS);
const dialogId = process.env.DIALOG_ID!;
const afterSeq = Number(process.env.AFTER_SEQ ?? 0);

const tally = createDeliveryTally(subscribers);
let ready = 0;
const closers: (() => void)[] = [];

const SUBSCRIPTION = `subscription($dialogId: ID!, $afterSeq: Int) {
  historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
    seq previousSeq status endsTextPart
    text { responseId part type offset delta }
    append { __typename ... on BaseHistoryEvent { id seq } ... on AiEvent { content } }
  }
}`;

function received(index: number, text: { offset: number } | null) {
  if (!text) return;
  // The first message is the text so far (offset 0): the subscription is live.
  if (text.offset === 0) {
    if (++ready === subscribers) process.send!({ type: "ready" });
    return;
  }
  tally.see(index, text.offset);
  tally.arrive(text.offset);
}

function connect(index: number) {
  // The protocol spoken directly, as bench/load/ws-subscribers.ts does, so this process keeps up.
  const socket = new WebSocket(url, "graphql-transport-ws");
  socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init" })));
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as { type: string; payload?: any };
    if (message.type === "connection_ack") {
      socket.send(
        JSON.stringify({
          id: "1",
          type: "subscribe",
          payload: { query: SUBSCRIPTION, variables: { dialogId, afterSeq } },
        }),
      );
    } else if (message.type === "next") {
      if (message.payload.errors) console.error(`[text ${index}]`, JSON.stringify(message.payload.errors));
      else received(index, message.payload.data.historyDelta.text);
    } else if (message.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
  });
  socket.on("error", (error) => console.error(`[text ${index}]`, error.message));
  closers.push(() => socket.close());
}

await openInBatches(subscribers, connect, () => ready);

const publishedAt = new Map<number, number>();
process.on("message", (message: { type: string; offset?: number; at?: number }) => {
  if (message.type === "published") publishedAt.set(message.offset!, message.at!);
  if (message.type !== "finish") return;
  for (const close of closers) close();
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
  });
  if (process.env.TEXT_TIMELINE) printTimeline(publishedAt, first);
  setTimeout(() => process.exit(0), 500);
});

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
    const { p50, p99, max } = tally.report(new Map([[offset, at]]));
    return `delta ${at.toFixed(1)} p50 ${p50.toFixed(1)} p99 ${p99.toFixed(1)} max ${max.toFixed(1)}`;
  });
  console.error(`[deltas ${url}]\n${rows.join("\n")}`);
}
