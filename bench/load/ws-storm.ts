// Child process: a connect storm. SUBSCRIBERS graphql-ws sockets opened all at once (no batching,
// unlike ws-subscribers.ts), spread over DIALOG_IDS (comma-separated) and over WS_URLS (one or
// more, comma-separated), each subscribing to its dialog's historyDelta after AFTER_SEQ so the
// replayed delta says it is live. A socket whose subscription is refused as busy (code
// SUBSCRIPTIONS_BUSY), or which is closed, reconnects after its retry delay with jitter, as the
// project's own client does. Tells the parent `ready` with the storm's duration once every
// subscriber is live; afterwards reports resubscribes (a socket closed by its server, as when an
// instance is killed, opens again) with how long each took; on `finish` the per-seq tally.
import { createDeliveryTally } from "../lib/delivery-tally.js";
import { summarize } from "../lib/stats.js";
import { createSubscriberStorm } from "../lib/subscriber-storm.js";

const subscribers = Number(process.env.SUBSCRIBERS);
const dialogIds = process.env.DIALOG_IDS!.split(",");
const afterSeq = Number(process.env.AFTER_SEQ ?? 0);
const phased = process.env.PHASED === "1";

const SUBSCRIPTION = `subscription($dialogId: ID!, $afterSeq: Int) {
  historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {
    dialogId responseId seq previousSeq status
    append { __typename ... on BaseHistoryEvent { id seq type createdAt } ... on HumanEvent { content } ... on AiEvent { content } }
  }
}`;

const tally = createDeliveryTally(subscribers);
const lastSeq = new Array<number>(subscribers).fill(afterSeq);
let subscribeNow = false;
const acked: (() => void)[] = [];

const storm = createSubscriberStorm({
  subscribers,
  urls: process.env.WS_URLS!.split(","),
  query: SUBSCRIPTION,
  variables: (index) => ({ dialogId: dialogIds[index % dialogIds.length]!, afterSeq: lastSeq[index] }),
  onAck(_index, subscribe) {
    // PHASED=1: every socket is acknowledged before any subscribes (the parent times the two).
    if (phased && !subscribeNow) {
      acked.push(subscribe);
      if (acked.length === subscribers) process.send!({ type: "acked" });
    } else subscribe();
  },
  onDelta(index, delta) {
    if (tally.see(index, delta.seq) === 0 && delta.seq > afterSeq + 1) tally.arrive(delta.seq);
    lastSeq[index] = Math.max(lastSeq[index]!, delta.seq);
  },
});
const { state } = storm;

process.on("message", (message: { type: string; committedAt?: [number, number][] }) => {
  if (message.type === "storm") {
    storm.storm();
  } else if (message.type === "subscribe") {
    subscribeNow = true;
    for (const subscribe of acked.splice(0)) subscribe();
  } else if (message.type === "resumed") {
    // How long the subscribers that lost their subscription took to get it back.
    process.send!({ type: "resumed", lost: state.lostAt.size + state.resumeMs.length, ...summarize(state.resumeMs) });
  } else if (message.type === "finish") {
    storm.stop();
    const report = tally.report(new Map(message.committedAt));
    process.send!({ type: "result", ...report, live: state.liveCount });
    setTimeout(() => process.exit(0), 200);
  }
});
process.send!({ type: "started" });
