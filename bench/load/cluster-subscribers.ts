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
import { summarize } from "../lib/stats.js";
import { createSubscriberStorm } from "../lib/subscriber-storm.js";

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

const storm = createSubscriberStorm({
  subscribers,
  urls: process.env.WS_URLS!.split(","),
  query: SUBSCRIPTION,
  variables: (index) => ({ dialogId: dialogIds[dialogOf(index)]!, afterSeq: lastPreviousSeq[index] }),
  onUpgrade: (index, response) => (instanceOf[index] = String(response.headers["x-served-by"] ?? "?")),
  onAck(index, subscribe) {
    liveSign[index] = lastSeq[index]!;
    generationOf[index]!++;
    subscribe();
  },
  onDelta: (index, delta) => received(index, delta.seq),
  readyExtras: () => ({ perInstance: perInstance() }),
});
const { state } = storm;
const { live } = state;

const perInstance = () => {
  const counts: Record<string, number> = {};
  for (let i = 0; i < subscribers; i++) if (live[i]) counts[instanceOf[i]!] = (counts[instanceOf[i]!] ?? 0) + 1;
  return counts;
};

/** A delta arrived (the subscription is live: the storm module counts it so after this). */
function received(index: number, seq: number) {
  if (liveSign[index] !== null && seq === liveSign[index]) {
    liveSign[index] = null;
    return;
  }
  // A delta before the sign would mean the replay is not in order: count it, and the
  // subscription is live all the same.
  liveSign[index] = null;
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
    storm.storm();
  } else if (message.type === "status") {
    process.send!({ type: "status", live: state.liveCount, stillOut: state.lostAt.size });
  } else if (message.type === "resumed") {
    process.send!({
      type: "resumed",
      resubscribed: state.resumeMs.length,
      stillOut: state.lostAt.size,
      live: state.liveCount,
      ...summarize(state.resumeMs),
      perInstance: perInstance(),
    });
    state.resumeMs = [];
  } else if (message.type === "finish") {
    storm.stop();
    const { liveCount, reconnects, refusedBusy, failedOther } = state;
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
