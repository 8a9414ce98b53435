// A consistent starting point for following a dialog: the seq the dialog had reached, the response
// whose context is shown (the head, or a pinned response), and that context in full.
//
// The reads are ordered on purpose. lastSeq is read first, the tip after it, the history last, so
// everything read is at least as new as lastSeq: a delta after lastSeq may repeat an event already
// read (the watcher drops it by id) but nothing committed up to lastSeq can be missing.
//
// With `tail`, only the context's last `tail` events are read (backwards from its end, so a long
// dialog opens with one request); `earlier` says how many come before them, and
// `readEarlierEvents` reads those a page at a time from `startCursor`.
import type { DialogHistoryQuery, HistoryEventFieldsFragment, ResponseSummaryFragment } from "./generated/graphql.js";
import {
  DialogHeadDocument,
  DialogHistoryDocument,
  DialogLastSeqDocument,
  ResponseTipDocument,
} from "./operations/queries.js";
import { DialogqlError, dataOf, type Transport } from "./transport.js";

export type HistoryEvent = HistoryEventFieldsFragment;
export type ResponseSummary = ResponseSummaryFragment;

export interface HistorySnapshot {
  /** The dialog's seq when the read began: deltas after it are still to be applied. */
  lastSeq: number;
  /** The response whose context `events` is; null for a dialog with no responses. */
  tip: ResponseSummary | null;
  events: HistoryEvent[];
  /** The responses of the context (and the tip), by id. */
  responses: Record<string, ResponseSummary>;
  /** Events of the context before `events`, not read (0 unless a tail was asked for). */
  earlier: number;
  /** Where the events not read end: `before` for the next read back; null when there are none. */
  startCursor: string | null;
}

export interface SnapshotOptions {
  /** Read only the context's last this many events (at least); the whole context when absent. */
  tail?: number | null;
}

const PAGE_SIZE = 1_000;

export async function readHistorySnapshot(
  transport: Transport,
  dialogId: string,
  pinnedResponseId: string | null,
  { tail = null }: SnapshotOptions = {},
): Promise<HistorySnapshot> {
  const { dialog } = dataOf(await transport.execute(DialogLastSeqDocument, { id: dialogId }));
  if (!dialog) throw notFound(`Dialog ${dialogId} not found`);
  const tip = await readTip(transport, dialogId, pinnedResponseId);
  const snapshot: HistorySnapshot = {
    lastSeq: dialog.lastSeq,
    tip,
    events: [],
    responses: {},
    earlier: 0,
    startCursor: null,
  };
  if (tip) snapshot.responses[tip.id] = tip;
  if (!tip) return snapshot;
  if (tail != null) {
    Object.assign(
      snapshot,
      await readEarlierEvents(transport, dialogId, tip.id, { cursor: null, held: 0 }, tail, snapshot.responses),
    );
    return snapshot;
  }

  let after: string | null = null;
  for (;;) {
    const page: DialogHistoryQuery = dataOf(
      await transport.execute(DialogHistoryDocument, { dialogId, responseId: tip.id, first: PAGE_SIZE, after }),
    );
    if (!page.dialog) throw notFound(`Dialog ${dialogId} not found`);
    const { edges, pageInfo } = page.dialog.history;
    for (const { node } of edges) {
      snapshot.events.push(node);
      snapshot.responses[node.response.id] ??= node.response;
    }
    if (!pageInfo.hasNextPage || !pageInfo.endCursor) break;
    after = pageInfo.endCursor;
  }
  return snapshot;
}

/** Where to read back from: before `cursor` (the context's end when null), behind `held` events. */
export interface ReadBack {
  cursor: string | null;
  held: number;
}

/**
 * At least `count` events of `responseId`'s context before `from`, read backwards a page at a
 * time; their responses are added to `responses`.
 */
export async function readEarlierEvents(
  transport: Transport,
  dialogId: string,
  responseId: string,
  from: ReadBack,
  count: number,
  responses: Record<string, ResponseSummary>,
): Promise<Pick<HistorySnapshot, "events" | "earlier" | "startCursor">> {
  let events: HistoryEvent[] = [];
  let earlier: number;
  let startCursor = from.cursor;
  do {
    const page: DialogHistoryQuery = dataOf(
      await transport.execute(DialogHistoryDocument, {
        dialogId,
        responseId,
        last: Math.min(PAGE_SIZE, Math.max(1, count - events.length)),
        before: startCursor,
      }),
    );
    if (!page.dialog) throw notFound(`Dialog ${dialogId} not found`);
    const { edges, pageInfo, totalMessages } = page.dialog.history;
    const nodes = edges.map((edge) => edge.node);
    for (const node of nodes) responses[node.response.id] ??= node.response;
    events = [...nodes, ...events];
    startCursor = pageInfo.startCursor ?? startCursor;
    // The total counts the whole context; what is neither held nor read now is before it.
    earlier = pageInfo.hasPreviousPage ? Math.max(1, totalMessages - from.held - events.length) : 0;
  } while (earlier > 0 && events.length < count);
  return { events, earlier, startCursor: earlier > 0 ? startCursor : null };
}

async function readTip(transport: Transport, dialogId: string, pinnedResponseId: string | null) {
  if (!pinnedResponseId) {
    const { dialog } = dataOf(await transport.execute(DialogHeadDocument, { id: dialogId }));
    if (!dialog) throw notFound(`Dialog ${dialogId} not found`);
    return dialog.head ?? null;
  }
  const { response } = dataOf(await transport.execute(ResponseTipDocument, { id: pinnedResponseId }));
  if (!response || response.dialog.id !== dialogId) throw notFound(`Response ${pinnedResponseId} not found`);
  const { dialog: _dialog, ...summary } = response;
  return summary;
}

function notFound(message: string) {
  return new DialogqlError([{ message, extensions: { code: "NOT_FOUND" } }]);
}
