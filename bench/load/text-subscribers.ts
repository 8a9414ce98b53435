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
  setTimeout(() => process.exit(0), 500);
});
