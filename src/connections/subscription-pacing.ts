// Subscriptions start at a pace the event loop can take. Starting one costs milliseconds of CPU
// (its document, its context, its first reads and their results) on the loop that also answers
// `/health` and `/ready`; 10,000 clients reconnecting at once (an instance behind the same load
// balancer died, a deploy) would queue those checks behind seconds of start-up work, and the load
// balancer would take the instance out for being slow, then the next one. So a subscription waits
// for a turn before it starts: at most `perTick` turns are given per turn of the event loop (what
// arrived meanwhile, `/health` included, is answered between them) and at most `maxStarting`
// subscriptions are starting at once (admitted, not yet delivering, so the database pool is not
// flooded either), of which one tenant's hold at most `maxStartingPerTenant`: a tenant's connect
// storm waits in its own groups while other tenants' subscriptions start (their start-up reads
// also run in the tenant's share of the pool, src/schema/request-budget.ts). Beyond `maxWaiting` waiting, a subscription is refused at once with
// SUBSCRIPTIONS_BUSY and a jittered `retryAfterMs`, so its client comes back later instead of
// lengthening the queue. A subscription has started when its stream produced its first result,
// ended, or said it caught up with nothing to send yet (src/live/stream-started.ts).
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { metrics } from "../metrics.js";
import { sharingKeyOf } from "./sharing-key.js";
import { onStreamLive } from "../live/stream-started.js";

export interface PacingLimits {
  /** Turns given per turn of the event loop. */
  perTick: number;
  /** Subscriptions starting at once. */
  maxStarting: number;
  /** Subscriptions of one tenant starting at once. */
  maxStartingPerTenant: number;
  /** Subscriptions waiting for a turn; more are refused. */
  maxWaiting: number;
}

/** A subscription's turn to start; `done()` (any number of times) gives it back. */
export interface Turn {
  done(): void;
}

interface Waiter {
  gone: () => boolean;
  resolve: (turn: Turn | null) => void;
}

/** The waiters of one kind of subscription of one tenant, in arrival order (a head index: no quadratic shifts). */
interface Group {
  tenantId: string;
  waiters: Waiter[];
  head: number;
}

/** The subscriptions starting now: in all, and of each tenant. */
class StartingCounts {
  total = 0;
  private readonly byTenant = new Map<string, number>();

  of(tenantId: string) {
    return this.byTenant.get(tenantId) ?? 0;
  }

  add(tenantId: string) {
    this.total++;
    this.byTenant.set(tenantId, this.of(tenantId) + 1);
  }

  remove(tenantId: string) {
    this.total--;
    const left = this.of(tenantId) - 1;
    if (left) this.byTenant.set(tenantId, left);
    else this.byTenant.delete(tenantId);
  }
}

/**
 * The subscriptions waiting for a turn. Subscriptions of one kind (same document and variables:
 * the subscribers of one dialog from one seq) wait together and start one after the other, so
 * their start-up reads are shared (src/live/catch-up-reads.ts); kinds take turns in the order
 * their first one arrived.
 */
class WaitingRoom {
  count = 0;
  private readonly groups = new Map<string, Group>();

  enter(key: string, tenantId: string, waiter: Waiter) {
    const groupKey = `${tenantId}\u0000${key}`;
    let group = this.groups.get(groupKey);
    if (!group) this.groups.set(groupKey, (group = { tenantId, waiters: [], head: 0 }));
    group.waiters.push(waiter);
    this.count++;
  }

  /** The next waiter whose tenant `mayStart` (undefined: none may), out of the room. */
  leave(mayStart: (tenantId: string) => boolean): { waiter: Waiter; tenantId: string } | undefined {
    for (const [key, group] of this.groups) {
      if (!mayStart(group.tenantId)) continue;
      const waiter = group.waiters[group.head++];
      if (group.head >= group.waiters.length) this.groups.delete(key);
      if (waiter) {
        this.count--;
        return { waiter, tenantId: group.tenantId };
      }
    }
    return undefined;
  }
}

export function createSubscriptionPacing(
  limits: PacingLimits,
  nextTick: (pump: () => void) => void = (pump) => void setImmediate(pump),
) {
  const starting = new StartingCounts();
  const waiting = new WaitingRoom();
  let pumpScheduled = false;

  const schedulePump = () => {
    if (pumpScheduled || !waiting.count || starting.total >= limits.maxStarting) return;
    pumpScheduled = true;
    nextTick(pump);
  };
  const turn = (tenantId: string): Turn => {
    let given = true;
    starting.add(tenantId);
    return {
      done() {
        if (!given) return;
        given = false;
        starting.remove(tenantId);
        schedulePump();
      },
    };
  };
  const hasShareLeft = (tenantId: string) => starting.of(tenantId) < limits.maxStartingPerTenant;
  function pump() {
    pumpScheduled = false;
    let given = 0;
    while (given < limits.perTick && starting.total < limits.maxStarting && waiting.count) {
      const next = waiting.leave(hasShareLeft);
      // Every waiting tenant has its share starting: the next turn given back pumps again.
      if (!next) break;
      // Its client left while it waited: no work for it, and no turn used.
      if (next.waiter.gone()) {
        next.waiter.resolve(null);
        continue;
      }
      given++;
      next.waiter.resolve(turn(next.tenantId));
    }
    metrics.subscriptionsWaiting.set(waiting.count);
    // Another pump only when this one stopped at its per-tick count (otherwise a turn given back
    // or a new waiter schedules it), so waiters of tenants at their share never spin the loop.
    if (given >= limits.perTick) schedulePump();
  }

  return {
    /**
     * Waits for a turn for a subscription of kind `key` of `tenantId`: the promise gives the turn, or null if the
     * client went away meanwhile (`gone`). Null at once when too many are waiting: refuse the
     * subscription (subscriptionsBusyError()).
     */
    enter(key: string, tenantId: string, gone: () => boolean): Promise<Turn | null> | null {
      if (waiting.count >= limits.maxWaiting) {
        metrics.subscriptionsRefusedBusy.inc();
        return null;
      }
      const entered = new Promise<Turn | null>((resolve) => waiting.enter(key, tenantId, { gone, resolve }));
      metrics.subscriptionsWaiting.set(waiting.count);
      schedulePump();
      return entered;
    },
    get waiting() {
      return waiting.count;
    },
    get starting() {
      return starting.total;
    },
    /** The subscriptions of `tenantId` starting now. */
    startingOf: (tenantId: string) => starting.of(tenantId),
  };
}

export type SubscriptionPacing = ReturnType<typeof createSubscriptionPacing>;

/**
 * The refusal of a subscription when too many are waiting to start. `retryAfterMs` is spread
 * over a second or two, so the clients refused together do not all come back together.
 */
export function subscriptionsBusyError(random = Math.random) {
  const retryAfterMs = Math.round(500 + random() * 1_500);
  return new GraphQLError(
    `This instance is starting many subscriptions; retry in ${retryAfterMs} ms (a jittered wait spreads the retries)`,
    { extensions: { code: "SUBSCRIPTIONS_BUSY", retryAfterMs } },
  );
}

// A turn taken by the transport before the operation's context existed (graphql-ws waits for it
// before any per-operation work), handed to the plugin with the context.
const turnsTaken = new WeakMap<object, Turn>();

/**
 * For a transport that runs an operation's own work itself (graphql-ws: rate limit, context,
 * validation): waits for a turn before that work when `query` may be a subscription (the word
 * appears: a query or mutation that merely mentions it waits for nothing worse than a turn).
 * Gives "busy" when too many wait, "gone" when the client went away meanwhile, null when no turn
 * is needed.
 */
export async function turnBeforeOperation(
  pacing: SubscriptionPacing,
  operation: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null },
  tenantId: string,
  gone: () => boolean,
): Promise<Turn | "busy" | "gone" | null> {
  if (!/\bsubscription\b/.test(operation.query)) return null;
  const key = `${operation.query}\u0000${operation.operationName ?? ""}\u0000${JSON.stringify(operation.variables ?? {})}`;
  const entered = pacing.enter(key, tenantId, gone);
  if (!entered) return "busy";
  return (await entered) ?? "gone";
}

/** Hands a turn taken by the transport to the subscription whose context is `context`. */
export function handTurnTo(context: object, turn: Turn) {
  turnsTaken.set(context, turn);
}

/**
 * Paces every subscription the app starts (graphql-ws and SSE alike): each waits for its turn
 * before its resolver runs (unless its transport took one already), and gives it back once its
 * stream has started.
 */
export function useSubscriptionPacing(pacing: SubscriptionPacing): Plugin {
  return {
    async onSubscribe({ args, context, setResultAndStopExecution }) {
      let turn = turnsTaken.get(context) ?? null;
      turnsTaken.delete(context);
      if (!turn) {
        const entered = pacing.enter(sharingKeyOf(args), tenantOf(context), () => clientGone(context));
        if (!entered) return setResultAndStopExecution({ errors: [subscriptionsBusyError()] });
        turn = await entered;
        if (!turn) return setResultAndStopExecution({ errors: [clientWentAway()] });
      }
      const given = turn;
      onStreamLive(context, () => given.done());
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result)) return given.done();
          setResult(startedOnFirstStep(result, given));
        },
        // Thrown by the resolver: the subscription ended before it started.
        onSubscribeError: () => given.done(),
      };
    },
  };
}

/** What a subscription whose client left while it waited gets (nobody reads it). */
export const clientWentAway = () => new GraphQLError("The client went away before its subscription started");

/** Passes `source` through, giving `turn` back when its first step settles or it is stopped. */
function startedOnFirstStep<T>(source: AsyncIterable<T>, turn: Turn): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let first = true;
  const stream: AsyncIterableIterator<T> = {
    next() {
      if (!first) return iterator.next();
      first = false;
      const step = iterator.next();
      step.then(turn.done, turn.done);
      return step;
    },
    return(value?: unknown) {
      turn.done();
      return iterator.return?.(value) ?? Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]: () => stream,
  };
  return stream;
}

/** The subscriber's tenant (every subscription's context has a viewer: src/server/context.ts). */
function tenantOf(context: object) {
  return (context as { viewer?: { tenantId?: string } }).viewer?.tenantId ?? "";
}

/** Whether the subscriber's connection closed: its WebSocket (graphql-ws) or its request (SSE). */
function clientGone(context: object) {
  const { socket, request } = context as { socket?: { readyState?: number }; request?: Request };
  if (socket && typeof socket.readyState === "number") return socket.readyState !== 1;
  return Boolean(request?.signal?.aborted);
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;
