// What a history subscriber reads to catch up, shared with the subscribers of the same dialog at
// the same seq. A subscriber catches up when it starts (after `afterSeq`, or from now) and after a
// Redis reconnect (a resync): the dialog's position, the writes after its seq and the open texts.
// Thousands of subscribers of a hundred dialogs starting together (a connect storm, the clients of
// an instance that died) or told to resync together would each read the same rows; here they
// share them, so an instance reads each dialog once per wave, not once per subscriber.
//
// A read serves only subscribers whose listener was in place before it started, so a write the
// read does not see reaches them live:
// - a resync reaches every listener of the channel at once (the same Resync object), after the
//   channel was subscribed again: its reads are shared by every subscriber it reached;
// - a start is shared by the subscribers that asked before the read started. Those that ask while
//   a read of the same thing runs wait for the next one, which starts when that one is over. A
//   read starts once a turn of the event loop brought no more askers for it (at least one turn
//   after its first asker, at most GATHER_MS): subscription-pacing.ts starts the subscribers of
//   one dialog one after the other, a few per turn, and each reaches its read a few turns after
//   its start, so a read started on the first quiet turn after the first asker missed about half
//   of them (bench:cluster, 1,000 subscribers over 100 dialogs: 1.9 subscribers per read).
import { Prisma, type PrismaClient } from "../generated/prisma/client.js";
import { run } from "../store/sql.js";
import type { Store } from "../store/store.js";
import type { InFlightState } from "../vocabulary/in-flight.js";
import { readDeltasBetween, readDialogPosition, type WriteDeltaView } from "./delta-reads.js";
import type { Resync } from "./live-bus.js";

// A longer catch-up is read by each subscriber as it goes, not held whole in memory to be shared.
const SHARED_CATCH_UP_SEQS = 1_000;

export interface CatchUpRead {
  dialog: { lastSeq: number; clearedAtSeq: number | null } | null;
  /** The writes after the subscriber's seq, or null when too many to share (read them as usual). */
  deltas: WriteDeltaView[] | null;
  /** The open texts, read after the writes. */
  texts: InFlightState[];
}

/**
 * Where a subscriber's catch-up read runs: its tenant's share of the pool (the schema passes the
 * request budget's), so a tenant's flood of subscriptions starting waits in that tenant's queue.
 */
export type ReadThrough = <T>(read: () => Promise<T>) => Promise<T>;
const directly: ReadThrough = (read) => read();

/** Per database: two stores in one process never answer from each other's reads. */
const readsOf = new WeakMap<PrismaClient, ReadsStartingLater>();
const resyncReadsOf = new WeakMap<Resync, Map<string, Promise<CatchUpRead>>>();

/**
 * What a subscriber of `dialogId` that has everything up to `sent` (null: it starts from now)
 * needs to catch up: the dialog's position, the writes after `sent` (none when null) with the
 * status changes from `sent` on, and the open texts. `resync`: the resync it catches up after.
 */
export function readCatchUp(
  store: Store,
  dialogId: string,
  sent: number | null,
  textsOfDialog: (dialogId: string) => Promise<InFlightState[]>,
  resync?: Resync,
  through: ReadThrough = directly,
): Promise<CatchUpRead> {
  const key = `${dialogId}/${sent ?? "now"}`;
  // A shared read runs through the share of the subscriber that started it.
  const read = () => through(() => readAll(store, dialogId, sent, textsOfDialog));
  if (!resync) return readsFor(store).read(key, read);
  let reads = resyncReadsOf.get(resync);
  if (!reads) resyncReadsOf.set(resync, (reads = new Map()));
  let shared = reads.get(key);
  if (!shared) {
    reads.set(key, (shared = read()));
    // A failed read is not shared: each subscriber's own attempt reports its failure.
    shared.catch(() => reads.delete(key));
  }
  return shared;
}

async function readAll(
  store: Store,
  dialogId: string,
  sent: number | null,
  textsOfDialog: (dialogId: string) => Promise<InFlightState[]>,
): Promise<CatchUpRead> {
  const dialog = (await readDialogPosition(store, dialogId)) ?? null;
  if (!dialog) return { dialog, deltas: null, texts: [] };
  let deltas: WriteDeltaView[] | null = null;
  if (sent == null || dialog.lastSeq - sent <= SHARED_CATCH_UP_SEQS) {
    deltas = [];
    if (sent != null)
      for await (const delta of readDeltasBetween(store, dialogId, sent, dialog.lastSeq, sent)) deltas.push(delta);
  }
  return { dialog, deltas, texts: await textsOfDialog(dialogId) };
}

/**
 * Whose dialog `dialogId` is and its last seq (null: there is none), for checking a subscription's
 * arguments; shared the same way.
 */
export function readDialogOwner(store: Store, dialogId: string, through: ReadThrough = directly) {
  // A plain statement, not Prisma's findUnique: Prisma compiles each call (a few tenths of a
  // millisecond of CPU), once per shared read in a connect storm.
  return readsFor(store).read(`owner/${dialogId}`, () =>
    through(async () => {
      const [dialog] = await run<{ tenantId: string; lastSeq: number }>(
        Prisma.sql`SELECT "tenantId", "lastSeq" FROM "Dialog" WHERE id = ${dialogId}`,
        store.database,
      );
      return dialog ?? null;
    }),
  );
}

function readsFor(store: Store) {
  let reads = readsOf.get(store.prisma);
  if (!reads) readsOf.set(store.prisma, (reads = new ReadsStartingLater()));
  return reads;
}

/** How long a read may wait for more askers while they keep coming, turn after turn of the loop. */
export const GATHER_MS = 20;

/** Reads by key, each shared by those that asked for it before it started (see above). */
export class ReadsStartingLater {
  private readonly byKey = new Map<string, { running: boolean; next: Waiting | null }>();

  read<T>(key: string, run: () => Promise<T>): Promise<T> {
    let state = this.byKey.get(key);
    if (!state) this.byKey.set(key, (state = { running: false, next: null }));
    if (state.next) {
      state.next.askers++;
      return state.next.promise as Promise<T>;
    }
    const next = waiting(run);
    state.next = next;
    // A read running now waits for its end; otherwise it gathers askers first.
    if (!state.running) this.gather(key, next, performance.now(), 0);
    return next.promise as Promise<T>;
  }

  /** Starts `next` on the first turn of the loop that brought it no more askers (or after GATHER_MS). */
  private gather(key: string, next: Waiting, since: number, seen: number) {
    setImmediate(() => {
      if (next.askers > seen && performance.now() - since < GATHER_MS) this.gather(key, next, since, next.askers);
      else this.start(key);
    });
  }

  private start(key: string) {
    const state = this.byKey.get(key)!;
    const next = state.next!;
    state.next = null;
    state.running = true;
    next.start().finally(() => {
      state.running = false;
      if (state.next) this.start(key);
      else this.byKey.delete(key);
    });
  }
}

interface Waiting {
  promise: Promise<unknown>;
  /** How many asked for it so far. */
  askers: number;
  /** Starts the read; settles (never rejects) when it is over. */
  start(): Promise<void>;
}

function waiting(run: () => Promise<unknown>): Waiting {
  let settle!: (read: Promise<unknown>) => void;
  const promise = new Promise<unknown>((resolve) => (settle = resolve));
  return {
    promise,
    askers: 1,
    start() {
      const read = run();
      settle(read);
      return read.then(
        () => undefined,
        () => undefined,
      );
    },
  };
}
