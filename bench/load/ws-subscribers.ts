// Child process: SUBSCRIBERS WebSocket clients of one dialog, either graphql-ws subscriptions to
// historyDelta on dialogql (MODE=graphql-ws) or plain sockets to a raw `ws` broadcaster
// (MODE=raw, the baseline). The parent tells it over IPC when each write committed; it answers
// with delivery latencies and, per write, how many subscribers got it missing or twice.
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { summarize } from "../lib/stats.js";

const url = process.env.WS_URL!;
const subscribers = Number(process.env.SUBSCRIBERS);
const mode = process.env.MODE as "graphql-ws" | "raw";
const dialogId = process.env.DIALOG_ID!;
const afterSeq = Number(process.env.AFTER_SEQ ?? 0);
const now = () => performance.timeOrigin + performance.now();

// seq → arrival times, and per subscriber the seqs it has seen.
const arrivals = new Map<number, number[]>();
const seen = Array.from({ length: subscribers }, () => new Map<number, number>());
let ready = 0;
const closers: (() => void)[] = [];

function received(index: number, seq: number) {
  const count = seen[index]!.get(seq) ?? 0;
  seen[index]!.set(seq, count + 1);
  if (seq <= afterSeq + 1 && count === 0) {
    // The first message (a replayed delta, or the raw server's hello) means the subscription is live.
    if (++ready === subscribers) process.send!({ type: "ready" });
    return;
  }
  let times = arrivals.get(seq);
  if (!times) arrivals.set(seq, (times = []));
  times.push(now());
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
  const client = createClient({ url, webSocketImpl: WebSocket, lazy: false, retryAttempts: 0 });
  client.subscribe<{ historyDelta: { seq: number } }>(
    { query: SUBSCRIPTION, variables: { dialogId, afterSeq } },
    {
      next: (result) => received(index, result.data!.historyDelta.seq),
      error: (error) => console.error(`[graphql-ws ${index}]`, error),
      complete: () => undefined,
    },
  );
  closers.push(() => void client.dispose());
}

// Open the sockets in batches so the server's accept queue is not flooded.
for (let i = 0; i < subscribers; i += 250) {
  for (let j = i; j < Math.min(subscribers, i + 250); j++) connect(j);
  await new Promise((resolve) => setTimeout(resolve, 20));
}

const committedAt = new Map<number, number>();
process.on("message", (message: { type: string; seq?: number; at?: number }) => {
  if (message.type === "committed") committedAt.set(message.seq!, message.at!);
  if (message.type !== "finish") return;
  const latencies: number[] = [];
  let lost = 0;
  let duplicated = 0;
  for (const [seq, at] of committedAt) {
    for (const time of arrivals.get(seq) ?? []) latencies.push(time - at);
    for (const perSubscriber of seen) {
      const count = perSubscriber.get(seq) ?? 0;
      if (count === 0) lost++;
      if (count > 1) duplicated += count - 1;
    }
  }
  for (const close of closers) close();
  process.send!({ type: "result", ...summarize(latencies), lost, duplicated, writes: committedAt.size });
  setTimeout(() => process.exit(0), 500);
});
