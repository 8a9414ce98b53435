// A consistent starting point for following a dialog: the seq the dialog had reached, the response
// whose context is shown (the head, or a pinned response), and that context in full.
//
// The reads are ordered on purpose. lastSeq is read first, the tip after it, the history last, so
// everything read is at least as new as lastSeq: a delta after lastSeq may repeat an event already
// read (the watcher drops it by id) but nothing committed up to lastSeq can be missing.
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
}

const PAGE_SIZE = 1_000;

export async function readHistorySnapshot(
  transport: Transport,
  dialogId: string,
  pinnedResponseId: string | null,
): Promise<HistorySnapshot> {
  const { dialog } = dataOf(await transport.execute(DialogLastSeqDocument, { id: dialogId }));
  if (!dialog) throw notFound(`Dialog ${dialogId} not found`);
  const tip = await readTip(transport, dialogId, pinnedResponseId);
  const snapshot: HistorySnapshot = { lastSeq: dialog.lastSeq, tip, events: [], responses: {} };
  if (tip) snapshot.responses[tip.id] = tip;

  let after: string | null = null;
  while (tip) {
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
