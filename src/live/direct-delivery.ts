// One broadcast loop per delta for the subscribers that keep up. Normally a live delta reaches a
// graphql-ws socket through a chain of async iterators per subscriber (the listener's queue, the
// history stream's generator, the shared execution, Yoga's and our plugins' result wrappers, the
// `next` message sender): about a dozen promises per subscriber per delta, which with thousands of
// subscribers of one dialog cost more than the socket writes themselves.
//
// A subscriber is caught up when its whole chain is idle, waiting for the next payload (its
// listener's queue has a reader waiting) and its socket has nothing left to send. A dialog's
// payloads reach its listeners in seq order (src/live/seq-order.ts), so a caught-up subscriber
// stays caught up while its dialog's writers publish a moment out of order. For those, the
// history stream hands the payload to its subscription's lane instead: the payload's shared
// execution (src/server/shared-subscription-results.ts) is awaited once for all of them, and when it
// settles one synchronous loop writes the shared `next` message to each of their sockets. While a
// lane holds a payload, later ones wait in the listener's queue (src/live/payload-queue.ts), so
// order is kept; a payload the lane cannot write (the result has errors, which go through the
// error plugins; the socket backed up or closed) goes back to the front of the queue and takes
// the usual chain. On SSE, a message written directly that the kernel does not take at once holds
// the queue until it is flushed, so a slow reader still holds one message, as on the usual chain; a
// graphql-ws socket's messages of one turn of the event loop leave together at its end (up to
// MAX_HELD_BYTES in one turn: src/connections/coalesced-writes.ts), and a socket with bytes still
// unsent after that declines the next payload (it takes the usual chain).
//
// The lane of a subscription is found through its GraphQL context, which the three parties share:
// the transport sets `write` (graphql-ws: src/server/graphql-ws-next-messages.ts; SSE:
// src/server/sse-next-messages.ts), the shared results set `execute`, and the history stream
// (src/live/history-delta-stream.ts) calls `deliver`. A lane missing either end (a transport
// without one, such as a batched request) delivers nothing, and every payload takes the usual chain.
import type { ExecutionResult } from "graphql";
import { metrics } from "../metrics.js";

/** Writes a result to the subscriber's socket now: all in the kernel, or held with the rest of this
 * turn's writes to it for one system call at the turn's end ("flushed"), partly queued ("queued":
 * `onFlushed` is called once it is all sent), or not at all ("declined"). */
export type DirectWrite = (result: ExecutionResult, onFlushed: () => void) => "flushed" | "queued" | "declined";

export interface DirectDelivery<P> {
  payload: P;
  /** Still wanted (the subscription has not been stopped meanwhile). */
  wanted: () => boolean;
  /** The payload was written: the stream counts it as sent. */
  accepted: () => void;
  /** The lane is done with it; `handBack` gives the payload back to the usual chain. */
  release: (handBack?: P) => void;
}

type Result = ExecutionResult | Promise<ExecutionResult>;

export class DirectLane {
  write: DirectWrite | null = null;
  execute: ((payload: object) => Result) | null = null;

  /** Takes `delivery` if this lane can write it (it will call release() exactly once). */
  deliver<P extends object>(delivery: DirectDelivery<P>): boolean {
    if (!this.write || !this.execute) return false;
    const result = this.execute(delivery.payload);
    if (result instanceof Promise) waitFor(result, this, delivery as unknown as DirectDelivery<object>);
    else if (writeNow(result, this, delivery as unknown as DirectDelivery<object>)) metrics.deltasWrittenDirectly.inc();
    return true;
  }
}

const lanes = new WeakMap<object, DirectLane>();

/** The lane of the subscription whose GraphQL context is `context`. */
export function directLaneOf(context: object): DirectLane {
  let lane = lanes.get(context);
  if (!lane) lanes.set(context, (lane = new DirectLane()));
  return lane;
}

interface Waiting {
  lane: DirectLane;
  delivery: DirectDelivery<object>;
}

// Every subscriber of a payload waits for the same execution: one reaction to it, then one loop.
const waitingFor = new WeakMap<Promise<ExecutionResult>, Waiting[]>();

function waitFor(result: Promise<ExecutionResult>, lane: DirectLane, delivery: DirectDelivery<object>) {
  let waiting = waitingFor.get(result);
  if (!waiting) {
    const all: Waiting[] = (waiting = []);
    waitingFor.set(result, all);
    result.then(
      (settled) => {
        waitingFor.delete(result);
        let written = 0;
        for (const each of all) if (writeNow(settled, each.lane, each.delivery)) written++;
        metrics.deltasWrittenDirectly.inc(written);
      },
      () => {
        waitingFor.delete(result);
        // The usual chain gets the same rejection and reports it.
        for (const { delivery } of all) delivery.release(delivery.payload);
      },
    );
  }
  waiting.push({ lane, delivery });
}

/** Writes the result for one delivery, or gives the payload back; says whether it wrote. */
function writeNow(result: ExecutionResult, lane: DirectLane, delivery: DirectDelivery<object>): boolean {
  // The transport may have stopped (the client completed) while the result was on its way.
  if (!delivery.wanted() || !lane.write) {
    delivery.release();
    return false;
  }
  const written = result.errors?.length ? "declined" : lane.write(result, delivery.release);
  if (written === "declined") {
    delivery.release(delivery.payload);
    return false;
  }
  delivery.accepted();
  if (written === "flushed") delivery.release();
  return true;
}
