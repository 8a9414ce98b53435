// A gap read shared by the subscribers of one dialog on this instance. Writers to one dialog on
// another instance commit in seq order but publish in any order, so a payload often arrives before
// the one it follows, and every subscriber of the dialog finds the same gap at the same moment: a
// hundred SSE subscribers of a busy dialog each read it (three statements) about 25,000 times a
// minute in the soak (bench/soak.ts), nine tenths of that instance's statements and much of its
// event loop. Subscribers that lack the same span (from the same seq to the same seq) now share one
// read of it, like the read of a published payload (src/live/delta-reads.ts).
//
// Sharing is safe: a span's end is the previousSeq of a payload published after its commit, so
// whoever started the read knew every row up to it was committed; a status or a clear that comes
// after the read reaches the subscriber as its own payload, as it would after a read of its own.
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Store } from "../store/store.js";
import { readDeltasBetween, readDialogPosition, type WriteDeltaView } from "./delta-reads.js";

/** What a subscriber lacking a span reads: the dialog's last clear (undefined: the dialog is gone), then the span's deltas. */
export interface GapRead {
  clearedAtSeq: number | null | undefined;
  deltas: WriteDeltaView[];
}

// A gap is what a few payloads out of order leave; a longer span (a subscriber far behind) is read
// on its own, in batches, as before. A read is shared while it runs and for a moment after (the
// subscribers of a dialog reach the gap within moments of each other), then forgotten.
export const MAX_SHARED_GAP = 200;
const SHARE_GAP_MS = 1_000;
const MAX_SHARED_GAPS = 1_000;

type SharedGaps = Map<string, { readAt: number; read: Promise<GapRead> }>;
const gapsOf = new WeakMap<PrismaClient, SharedGaps>();

/** The span after < seq <= upTo of the dialog (status changes from `statusChangesFrom` on), read once for every subscriber lacking it. */
export function readGap(
  store: Store,
  dialogId: string,
  after: number,
  upTo: number,
  statusChangesFrom: number,
): Promise<GapRead> {
  let gaps = gapsOf.get(store.prisma);
  if (!gaps) gapsOf.set(store.prisma, (gaps = new Map()));
  const now = Date.now();
  forgetOldGaps(gaps, now);
  const key = `${dialogId}/${after}/${upTo}/${statusChangesFrom}`;
  const shared = gaps.get(key);
  if (shared && now - shared.readAt < SHARE_GAP_MS) return shared.read;
  const read = (async () => {
    const clearedAtSeq = (await readDialogPosition(store, dialogId))?.clearedAtSeq;
    const deltas: WriteDeltaView[] = [];
    for await (const delta of readDeltasBetween(store, dialogId, after, upTo, statusChangesFrom)) deltas.push(delta);
    return { clearedAtSeq, deltas };
  })();
  const entry = { readAt: now, read };
  // Shared from when it settles, not from when it started, so a slow read is still shared after.
  read.then(
    () => (entry.readAt = Date.now()),
    // A failed read is not shared: the next subscriber tries again.
    () => gaps.get(key) === entry && gaps.delete(key),
  );
  gaps.set(key, entry);
  return read;
}

function forgetOldGaps(gaps: SharedGaps, now: number) {
  // Oldest first (insertion order); a read still running has a readAt of its start, and one that
  // has run past SHARE_GAP_MS is dropped from sharing too (its subscribers still get it).
  for (const [key, { readAt }] of gaps) {
    if (now - readAt < SHARE_GAP_MS && gaps.size <= MAX_SHARED_GAPS) break;
    gaps.delete(key);
  }
}
