// What one request may read while it executes, whatever its cost estimate said: a number of event
// rows (reserved before each read, so a read that would pass the limit never starts), a number of
// bytes (counted after each read: the memory the answer will hold) and a time (a read that would
// start after the deadline does not). The cost limit bounds the shape of a query; this bounds the
// data, which a dialog of large events can make far bigger than the shape suggests.
//
// Each tenant's share of the database pool (`createTenantReads`) is here too: the pool's door
// (src/db/tenant-work.ts) takes every connection used on behalf of a tenant — its reads, writes,
// tenant checks, turns, subscriptions' start-up and resync reads — in that tenant's share, so one
// tenant's hundred parallel context reads, its flood of subscriptions starting or its turns'
// writes wait in its own queue instead of taking the whole pool while other tenants' requests go
// through. That queue is bounded too: past it, the tenant's call is refused with TENANT_BUSY (and a
// log line), never queued without end.
import { GraphQLError, type GraphQLErrorOptions } from "graphql";
import pLimit, { type LimitFunction } from "p-limit";
import { runInShare, type TenantShare } from "../db/tenant-work.js";
import type { Limits } from "../limits.js";
import { logger } from "../logger.js";
import { metrics } from "../metrics.js";

export interface RequestBudget {
  /**
   * Runs `read` within the request's budget; throws
   * QUERY_TOO_COMPLEX (limit rows, bytes or time) once it is spent. `rows` (what the read may
   * return at most) is reserved before it starts; what it did return is counted after.
   */
  read<T extends readonly unknown[]>(rows: number, read: () => Promise<T>): Promise<T>;
  /**
   * Runs a subscription's start-up read (whose dialog it is, what it catches up on), not after
   * the deadline. Its rows are not
   * counted: a catch-up reads in batches of its own and keeps none of them for an answer.
   */
  startUp<T>(read: () => Promise<T>): Promise<T>;
  /** Forgets the rows and bytes read so far, not the deadline: the query is answered again from the start. */
  restart(): void;
}

const refusal = (limit: "rows" | "bytes" | "time", message: string) =>
  new GraphQLError(message, { extensions: { code: "QUERY_TOO_COMPLEX", limit } });

/** Each tenant's share of the database pool, per app (one queue per tenant with calls in flight). */
export interface TenantReads extends TenantShare {
  /**
   * Runs `read` once fewer than `concurrency` of the tenant's calls run; refuses with TENANT_BUSY
   * when its queue is full. The connections `read` takes are its slot's (src/db/tenant-work.ts).
   */
  run<T>(tenantId: string, concurrency: number, read: () => Promise<T>): Promise<T>;
  /** The tenant's calls holding (or about to hold) a pool connection now. */
  active(tenantId: string): number;
  /** The tenant's calls waiting for one of its connections. */
  waiting(tenantId: string): number;
}

/** What one tenant's queue may hold before its reads are refused (TENANT_DB_QUEUE). */
export interface TenantReadsOptions {
  maxWaiting?: number;
}

/** The refusal of a read when its tenant's own queue is full: retry later, other tenants are not affected. */
export function tenantBusyError(located: Pick<GraphQLErrorOptions, "nodes" | "path"> = {}, random = Math.random) {
  const retryAfterMs = Math.round(500 + random() * 1_500);
  return new GraphQLError(`Too many database calls of this tenant are waiting; retry in ${retryAfterMs} ms`, {
    ...located,
    extensions: { code: "TENANT_BUSY", retryAfterMs },
  });
}

export function createTenantReads({ maxWaiting = Infinity }: TenantReadsOptions = {}): TenantReads {
  const slotsByTenant = new Map<string, LimitFunction>();
  // Tenants refused since their queue was last empty: one log line per burst, not one per read.
  const refusedTenants = new Set<string>();
  const slotsOf = (tenantId: string, concurrency: number) => {
    let slots = slotsByTenant.get(tenantId);
    if (!slots || slots.concurrency !== concurrency) {
      slots = pLimit(concurrency);
      slotsByTenant.set(tenantId, slots);
    }
    return slots;
  };
  /** Idle tenants' queues are dropped, so the map holds only tenants with reads in flight. */
  const forgetIfIdle = (tenantId: string) => {
    const slots = slotsByTenant.get(tenantId);
    if (slots && slots.activeCount === 0 && slots.pendingCount === 0) {
      slotsByTenant.delete(tenantId);
      refusedTenants.delete(tenantId);
    }
  };
  const refuse = (tenantId: string, slots: LimitFunction) => {
    metrics.tenantReadsRefused.inc();
    if (!refusedTenants.has(tenantId)) {
      refusedTenants.add(tenantId);
      logger.warn(
        `[db] tenant ${tenantId}: ${slots.pendingCount} reads wait for its ${slots.concurrency} connections (TENANT_DB_QUEUE); refusing more with TENANT_BUSY`,
      );
    }
    return Promise.reject(tenantBusyError());
  };
  const reads: TenantReads = {
    run(tenantId, concurrency, read) {
      const slots = slotsOf(tenantId, concurrency);
      // Counted as a whole: p-limit starts a queued read a microtask after it is queued.
      if (slots.activeCount + slots.pendingCount >= slots.concurrency + maxWaiting) return refuse(tenantId, slots);
      const work = { tenantId, share: reads, concurrency };
      return slots(() => runInShare(work, read)).finally(() => forgetIfIdle(tenantId));
    },
    active: (tenantId) => slotsByTenant.get(tenantId)?.activeCount ?? 0,
    waiting: (tenantId) => slotsByTenant.get(tenantId)?.pendingCount ?? 0,
  };
  return reads;
}

type BudgetLimits = Pick<Limits, "requestRows" | "requestBytes" | "requestMs">;

export interface BudgetOptions {
  /** Milliseconds now; tests move it by hand. */
  now?: () => number;
  /** Waits, before a read of `rows` rows, for its turn as a large answer (src/server/large-answers.ts). */
  beforeRead?: (rows: number) => Promise<void>;
}

/**
 * The request's budget. Its reads, like all its database calls, take their connections in its
 * tenant's share of the pool at the pool's door (src/db/tenant-work.ts).
 */
export function createRequestBudget(
  limits: BudgetLimits,
  { now = Date.now, beforeRead = async () => {} }: BudgetOptions = {},
): RequestBudget {
  const deadline = now() + limits.requestMs;
  let rows = 0;
  let bytes = 0;
  const inTime = <T>(read: () => Promise<T>) => {
    if (now() > deadline) throw refusal("time", `Request time limit of ${limits.requestMs} ms exceeded.`);
    return read();
  };
  return {
    async read(wanted, read) {
      if (rows + wanted > limits.requestRows) {
        throw refusal(
          "rows",
          `Request row limit of ${limits.requestRows} exceeded: this read would bring it to ${rows + wanted}.`,
        );
      }
      rows += wanted;
      await beforeRead(wanted);
      const result = await inTime(read);
      rows += result.length - wanted;
      if (rows > limits.requestRows) {
        throw refusal("rows", `Request row limit of ${limits.requestRows} exceeded: read ${rows} rows so far.`);
      }
      for (const row of result) bytes += sizeOf(row);
      if (bytes > limits.requestBytes) {
        throw refusal(
          "bytes",
          `Request size limit of ${limits.requestBytes} bytes exceeded: read ${bytes} bytes so far.`,
        );
      }
      return result;
    },
    startUp: async (read) => inTime(read),
    restart() {
      rows = 0;
      bytes = 0;
    },
  };
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Bytes a row holds, near enough: its strings' lengths, and its JSON values serialized. */
function sizeOf(row: unknown): number {
  if (typeof row === "string") return row.length;
  if (row === null || typeof row !== "object") return 8;
  if (row instanceof Date) return 8;
  let total = 0;
  // The own enumerable values, as Object.values gives them, without an array per row (a page
  // sizes every one of its rows; this is about 40 % cheaper).
  for (const key in row) if (hasOwn.call(row, key)) total += sizeOf((row as Record<string, unknown>)[key]);
  return total;
}
