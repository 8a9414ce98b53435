// Child process: SUBSCRIBERS WebSocket clients of one dialog, either graphql-ws subscriptions to
// historyDelta on dialogql (MODE=graphql-ws) or plain sockets to a raw `ws` broadcaster
// (MODE=raw, the baseline). The parent tells it over IPC when each write committed; it answers
// with delivery latencies and, per write, how many subscribers got it missing or twice.
import WebSocket from "ws";
import { createDeliveryTally, openInBatches } from "../lib/delivery-tally.js";
import { rawSubscription } from "../lib/raw-graphql-ws.js";

const url = process.env.WS_URL!;
const subscribers = Number(process.env.SUBSCRIBERS);
const mode = process.env.MODE as "graphql-ws" | "raw";
const dialogId = process.env.DIALOG_ID!;
const afterSeq = Number(process.env.AFTER_SEQ ?? 0);

const tally = createDeliveryTally(subscribers);
let ready = 0;
const closers: (() => void)[] = [];

function received(index: number, seq: number) {
  const count = tally.see(index, seq);
  if (seq <= afterSeq + 1 && count === 0) {
    // The first message (a replayed delta, or the raw server's hello) means the subscription is live.
    if (++ready === subscribers) process.send!({ type: "ready" });
    return;
  }
  tally.arrive(seq);
}

const SUBSCRIPTION = `subscription($dialogId: ID!, $afterSeq: Int) {
  historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
    dialogId responseId seq previousSeq status
    append { __typename ... on BaseHistoryEvent { id seq type createdAt } ... on HumanEvent { content } ... on AiEvent { content } }
  }
}`;

function connect(index: number) {
  if (mode === "raw") {
    const socket = new WebSocket(url);
    socket.on("message", (data) => received(index, (JSON.parse(data.toString()) as { seq: number }).seq));
    socket.on("error", (error) => console.error(`[raw ${index}]`, error.message));
    closers.push(() => socket.close());
    return;
  }
  const socket = rawSubscription(
    url,
    { query: SUBSCRIPTION, variables: { dialogId, afterSeq } },
    (data) => received(index, data.historyDelta.seq),
    `graphql-ws ${index}`,
  );
  closers.push(() => socket.close());
}

await openInBatches(subscribers, connect, () => ready);

const committedAt = new Map<number, number>();
process.on("message", (message: { type: string; seq?: number; at?: number }) => {
  if (message.type === "committed") committedAt.set(message.seq!, message.at!);
  if (message.type !== "finish") return;
  for (const close of closers) close();
  process.send!({ type: "result", ...tally.report(committedAt), writes: committedAt.size });
  setTimeout(() => process.exit(0), 500);
});
