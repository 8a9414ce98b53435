// After Redis comes back, every listener of the channels it touched is told to resync at once
// (the same Resync object to each). Each subscriber would read the dialog's position, the writes it
// missed and the open texts; the subscribers of one dialog that were at the same seq share those
// reads instead, per resync, so a reconnect costs an instance one catch-up per dialog, not one per
// subscriber.
import type { Store } from "../store/store.js";
import { readDeltasBetween, type WriteDeltaView } from "./delta-reads.js";
import type { InFlightState } from "../vocabulary/in-flight.js";
import type { Resync } from "./live-bus.js";

// A longer catch-up is read by each subscriber as it goes, not held whole in memory to be shared.
const SHARED_CATCH_UP_SEQS = 1_000;

export interface ResyncRead {
  dialog: { lastSeq: number; clearedAtSeq: number | null } | null;
  /** The writes after the subscriber's seq, or null when too many to share (read them as usual). */
  deltas: WriteDeltaView[] | null;
  /** The open texts, read after the writes. */
  texts: InFlightState[];
}

const readsOf = new WeakMap<Resync, Map<string, Promise<ResyncRead>>>();

export function readForResync(
  store: Store,
  resync: Resync,
  dialogId: string,
  sent: number,
  textsOfDialog: (dialogId: string) => Promise<InFlightState[]>,
): Promise<ResyncRead> {
  const reads = readsOf.get(resync) ?? new Map<string, Promise<ResyncRead>>();
  readsOf.set(resync, reads);
  const key = `${dialogId}/${sent}`;
  const known = reads.get(key);
  if (known) return known;
  const read = (async (): Promise<ResyncRead> => {
    const dialog = await store.prisma.dialog.findUnique({
      where: { id: dialogId },
      select: { lastSeq: true, clearedAtSeq: true },
    });
    if (!dialog) return { dialog, deltas: null, texts: [] };
    let deltas: WriteDeltaView[] | null = null;
    if (dialog.lastSeq - sent <= SHARED_CATCH_UP_SEQS) {
      deltas = [];
      for await (const delta of readDeltasBetween(store, dialogId, sent, dialog.lastSeq, sent)) deltas.push(delta);
    }
    return { dialog, deltas, texts: await textsOfDialog(dialogId) };
  })();
  // A failed read is not shared: each subscriber's own attempt reports its failure.
  read.catch(() => reads.delete(key));
  reads.set(key, read);
  return read;
}
