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
    seq previousSeq responseId status
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
/**
 * Per subscriber: each status change it was shown (`responseId:status`, with an appended delta or
 * alone), with the subscriptions it came on. A status-only delta (seq = previousSeq, nothing
 * appended) is a duplicate only when it repeats a status change already shown on the same
 * subscription: a resume at `afterSeq: n` replays the status change of a response finished at `n`
 * (docs/api.md), since the server cannot know the client saw it, and applying it again changes
 * nothing — that is the documented resume, not a duplicate.
 */
const statusesShown = Array.from({ length: subscribers }, () => new Map<string, number[]>());
/** Status changes shown twice on one subscription, and examples of them. */
let statusDuplicates = 0;
const statusExamples: string[] = [];

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
  onDelta: (index, delta) => received(index, delta),
  readyExtras: () => ({ perInstance: perInstance() }),
});
const { state } = storm;
const { live } = state;

const perInstance = () => {
  const counts: Record<string, number> = {};
  for (let i = 0; i < subscribers; i++) if (live[i]) counts[instanceOf[i]!] = (counts[instanceOf[i]!] ?? 0) + 1;
  return counts;
};

interface Delta {
  seq: number;
  responseId: string | null;
  status: string | null;
  append: unknown[];
}

/** A status change shown to subscriber `index`; whether this subscription had shown it already. */
function statusShown(index: number, delta: Delta) {
  if (!delta.responseId || !delta.status) return false;
  const key = `${delta.responseId}:${delta.status}`;
  let on = statusesShown[index]!.get(key);
  if (!on) statusesShown[index]!.set(key, (on = []));
  const again = on.includes(generationOf[index]!);
  on.push(generationOf[index]!);
  return again;
}

/**
 * A delta arrived. False while the (re)subscription is not live yet: a status-only delta replayed
 * before the live sign (the resume's status change at `afterSeq`) does not make it live.
 */
function received(index: number, delta: Delta): boolean {
  const again = statusShown(index, delta);
  if (delta.append.length === 0) {
    if (again) {
      statusDuplicates++;
      if (statusExamples.length < 5)
        statusExamples.push(
          `status ${delta.status} of ${delta.responseId} shown twice on one subscription: subscriber ${index} (#${generationOf[index]}, seq ${delta.seq})`,
        );
    }
    return liveSign[index] === null;
  }
  receivedAppend(index, delta.seq);
  return true;
}

function receivedAppend(index: number, seq: number) {
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
  return {
    lost,
    duplicated: duplicated + statusDuplicates,
    duplicatedWithinSubscription: duplicatedWithinSubscription + statusDuplicates,
    /** Of those, status changes shown twice on one subscription (nothing appended). */
    duplicatedStatus: statusDuplicates,
    lostByPhase,
    duplicatedByPhase,
    examples: [...examples, ...statusExamples],
    delivery,
  };
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
