// Reading deltas back from the database. A published payload names a range of one response's
// events; every subscriber of this process that receives it shares one read of that range
// (thousands of subscribers to one dialog cost one query per delta, not one each). Replays and
// gap repairs read whole ranges of the dialog in batches and cut them into per-response deltas.
import { prisma } from "../db/prisma.js";
import { NotFoundError } from "../errors.js";
import type { Event, Response } from "../generated/prisma/client.js";
import type { DeltaPayload } from "./live-bus.js";

/** A delta with what it shows: its events (in seq order) and its response. */
export interface HistoryDeltaView extends DeltaPayload {
  events: Event[];
  response: Response;
}

// Subscribers receive a payload within moments of each other; a read is kept a little longer
// than that, then dropped, so the cache stays small whatever the traffic.
const SHARE_READ_MS = 10_000;
const MAX_SHARED_READS = 5_000;
const sharedReads = new Map<string, { readAt: number; view: Promise<HistoryDeltaView> }>();

export function readDelta(payload: DeltaPayload): Promise<HistoryDeltaView> {
  const { dialogId, responseId, previousSeq, seq, status } = payload;
  const key = `${dialogId}/${responseId}/${previousSeq}/${seq}/${status}`;
  const now = Date.now();
  forgetOldReads(now);
  const shared = sharedReads.get(key);
  if (shared) return shared.view;
  const view = prisma.response
    .findUnique({
      where: { id: responseId },
      include: { events: { where: { seq: { gt: previousSeq, lte: seq } }, orderBy: { seq: "asc" } } },
    })
    .then((response) => {
      if (!response) throw NotFoundError.response(responseId);
      const { events, ...row } = response;
      return { ...payload, events, response: row };
    });
  // A failed read is not shared: the next subscriber tries again.
  view.catch(() => sharedReads.delete(key));
  sharedReads.set(key, { readAt: now, view });
  return view;
}

function forgetOldReads(now: number) {
  // Map iteration follows insertion order, so the oldest reads come first.
  for (const [key, { readAt }] of sharedReads) {
    if (now - readAt < SHARE_READ_MS && sharedReads.size <= MAX_SHARED_READS) break;
    sharedReads.delete(key);
  }
}

const REPLAY_BATCH = 1_000;

/**
 * Every event of the dialog with after < seq <= upTo, as deltas: one per run of consecutive
 * events of one response, read REPLAY_BATCH events per query. Each delta's status is its
 * response's status now.
 */
export async function* readDeltasBetween(dialogId: string, after: number, upTo: number) {
  // Bounded: each round moves `after` forward by at least one event or stops.
  while (after < upTo) {
    const events = await prisma.event.findMany({
      where: { dialogId, seq: { gt: after, lte: upTo } },
      orderBy: { seq: "asc" },
      take: REPLAY_BATCH,
      include: { response: true },
    });
    if (!events.length) return; // deleted meanwhile
    for (const run of runsByResponse(events)) {
      const response = run[0]!.response;
      const delta: HistoryDeltaView = {
        dialogId,
        responseId: response.id,
        previousSeq: run[0]!.seq - 1,
        seq: run.at(-1)!.seq,
        status: response.status,
        events: run.map(({ response: _response, ...event }) => event),
        response,
      };
      yield delta;
    }
    after = events.at(-1)!.seq;
  }
}

function runsByResponse<T extends { responseId: string }>(events: T[]): T[][] {
  const runs: T[][] = [];
  for (const event of events) {
    const run = runs.at(-1);
    if (run && run[0]!.responseId === event.responseId) run.push(event);
    else runs.push([event]);
  }
  return runs;
}
