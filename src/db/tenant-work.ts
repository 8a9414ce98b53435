// Whose work this is: the tenant a request, a WebSocket's messages or a turn works for, carried with
// the work itself (AsyncLocalStorage) from the place its caller becomes known to every database
// call it makes, however deep. The pool's checkout (src/db/postgres-database.ts) is the one door:
// a connection taken on behalf of a tenant is taken in that tenant's share of the pool (at most
// TENANT_DB_CONCURRENCY of them at once, the rest waiting in the tenant's own queue) and given back
// to it on release, so one tenant's writes, reads, tenant checks, turns and subscriptions together
// hold at most its share while the other tenants' calls take the rest. Work no tenant asked for
// (sweeps, the revocation poll, the live bus) is not counted.
//
// A request or socket starts its work with `runAsTenantWork` before its caller is known (the API
// key is checked in it) and names the tenant with `claimTenant` once access control found it. A
// slot is held from checkout to release, so its holder waits only for the database; the
// connections a transaction takes while it holds one (`onHeldConnection`) are counted in its slot,
// so a tenant never waits for its own share while holding part of it, and cannot deadlock on it.
import { AsyncLocalStorage } from "node:async_hooks";

/** A tenant's share of the pool: at most `concurrency` of its calls run at once; the rest wait. */
export interface TenantShare {
  run<T>(tenantId: string, concurrency: number, work: () => Promise<T>): Promise<T>;
}

/** The work of one request or socket: its tenant once known, and the share it is counted in. */
export interface TenantWork {
  tenantId: string | undefined;
  share: TenantShare;
  concurrency: number;
}

interface Frame {
  work: TenantWork;
  /** Running inside a slot of the share already: connections it takes are not counted again. */
  inShare: boolean;
}

const frames = new AsyncLocalStorage<Frame>();

/** Runs `fn` as `work` (its tenant may be named later, with claimTenant). */
export function runAsTenantWork<T>(work: TenantWork, fn: () => T): T {
  return frames.run({ work, inShare: false }, fn);
}

/** Names the tenant of the work running now (access control found the caller). */
export function claimTenant(tenantId: string) {
  const frame = frames.getStore();
  if (frame) frame.work.tenantId = tenantId;
}

/** Runs `fn` inside a slot of the share that its caller holds: its connections are that slot's. */
export function runInShare<T>(work: TenantWork, fn: () => T): T {
  return frames.run({ work, inShare: true }, fn);
}

/**
 * Runs `fn` on a connection the current work holds (a transaction, a session): other connections
 * it takes meanwhile are counted in the slot of the one it holds, so it never waits for its own
 * tenant's share while holding part of it.
 */
export function onHeldConnection<T>(fn: () => T): T {
  const frame = frames.getStore();
  if (!frame || frame.inShare || frame.work.tenantId === undefined) return fn();
  return frames.run({ work: frame.work, inShare: true }, fn);
}

/** Runs `fn` as nobody's work: what arrives from the live bus serves every tenant. */
export function runAsNobody<T>(fn: () => T): T {
  return frames.exit(fn);
}

const BUSY_WORDS = "are waiting for its share of the pool";

/**
 * Why a connection was not had: the tenant's own queue is full (TENANT_DB_QUEUE). Shaped as
 * PostgreSQL's "too many connections" (53300), so every layer answers it as UNAVAILABLE.
 */
export class TenantShareBusy extends Error {
  readonly code = "53300";
  readonly severity = "ERROR";
  constructor(tenantId: string, cause: unknown) {
    super(`too many database calls of tenant ${tenantId} ${BUSY_WORDS}; retry shortly`, {
      cause,
    });
  }
}

/** Whether `error` (or what it wraps: a GraphQLError, Prisma's error of the driver's) is a TenantShareBusy. */
export function isTenantShareBusy(error: unknown): boolean {
  for (let depth = 0, current = error; current != null && depth < 6; depth++) {
    if (current instanceof TenantShareBusy) return true;
    const { originalMessage } = current as { originalMessage?: unknown };
    if (typeof originalMessage === "string" && originalMessage.includes(BUSY_WORDS)) return true;
    const adapter = (current as { meta?: { driverAdapterError?: { cause?: unknown } } }).meta?.driverAdapterError;
    current = (current as { originalError?: unknown }).originalError ?? adapter?.cause ?? (current as Error).cause;
  }
  return false;
}

/**
 * Takes a connection with `connect`, in the share of the tenant whose work this is; the slot is
 * given back when the connection is released. Work of no tenant, or inside a slot already,
 * connects directly. A tenant whose queue is full (TENANT_DB_QUEUE) is refused at once.
 */
export function connectInShare<C extends { release: (error?: Error | boolean) => void }>(
  connect: () => Promise<C>,
): Promise<C> {
  const frame = frames.getStore();
  if (!frame || frame.inShare || frame.work.tenantId === undefined) return connect();
  const { work } = frame;
  const tenantId = work.tenantId!;
  return new Promise<C>((resolve, reject) => {
    const slot = () =>
      new Promise<void>((slotDone) => {
        connect().then(
          (client) => {
            const release = client.release;
            client.release = (error) => {
              client.release = release;
              slotDone();
              return release.call(client, error);
            };
            resolve(client);
          },
          (error: unknown) => {
            slotDone();
            reject(error as Error);
          },
        );
      });
    // A full queue refuses it, like a read (its holders are bounded in time by the server's limits).
    work.share
      .run(tenantId, work.concurrency, slot)
      .catch((refusal: unknown) => reject(new TenantShareBusy(tenantId, refusal)));
  });
}

/** Every event of `emitter` (a WebSocket: its messages) is handled as `work`. */
export function emitsAsTenantWork(emitter: NodeJS.EventEmitter, work: TenantWork) {
  const emit = emitter.emit.bind(emitter);
  emitter.emit = ((event: string | symbol, ...args: unknown[]) =>
    runAsTenantWork(work, () => emit(event, ...args))) as typeof emitter.emit;
}
