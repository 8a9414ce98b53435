// A turn's first model call, sent while its opening write commits, so that the first token waits
// for the commit rather than the call's start waiting for the write (issue 27). It is made only
// when everything the call carries is known before the write commits: the context the turn
// continues is kept here (or is none: a new dialog), its input is parsed, and no MCP server is to
// be listed nor approval acted on first (those go before the model call and write). The budget
// check stays before it (a refused caller calls no model). Nothing of the call's stream is read
// until the write has committed: the turn, which starts only then, reads it as its first step's
// (tool-loop.ts), so no delta is written, published or sent before the commit. A write that fails
// (the parent gone, a lock not had in time, a conflict) discards the call, which is aborted, and
// its error is the answer as before.
import { type CallBasis, modelContext, stepRequest } from "./model-call.js";
import { toModelMessages } from "./model-messages.js";
import { openStep, type PartReader } from "./model-step.js";
import type { ProviderPart } from "./provider-stream.js";
import type { FirstCall } from "./turn-request.js";
import type { TurnSink } from "./turn-sink.js";

/** Sends the turn's first model call now, when it can be made before the turn is opened; else null. */
export function openFirstCall(basis: CallBasis, sink: TurnSink): FirstCall | null {
  const { request } = basis;
  // A retry of an idempotent request calls no model, and only its write can tell that it is one.
  if (request.idempotency) return null;
  if (request.mcp && (request.mcp.servers.length || request.mcp.approvals.length)) return null;
  const foreseen = sink.foresee?.(request);
  if (!foreseen) return null;
  // A signal of its own: a discarded call is aborted, and so is the call of a turn stopped (a cancel).
  const discarded = new AbortController();
  const abort = AbortSignal.any([basis.abort, discarded.signal]);
  const prepared = modelContext(basis, foreseen.context).then((context) => ({
    context,
    messages: toModelMessages(context),
  }));
  const parts = prepared
    .then(({ messages }) => openStep(stepRequest({ ...basis, abort }, messages, null, 0)))
    .then(readFromNow);
  // Their failures are the first step's, awaited once the turn is open (or never, once discarded):
  // not unhandled rejections meanwhile.
  prepared.catch(() => {});
  parts.catch(() => {});
  let taken = false;
  return {
    previousResponseId: foreseen.previousResponseId,
    prepared,
    sentAt: performance.now(),
    take() {
      taken = true;
      return parts.then((reader) => reader.take());
    },
    discard() {
      if (!taken) discarded.abort();
    },
  };
}

/**
 * Reads the call's parts as they come, keeping them until the step takes over. Left unread while
 * the write commits, a stream whose upstream then failed would drop the parts it had queued (an
 * errored web stream discards its queue), where a turn keeps the text the upstream sent before
 * failing. Once taken, the parts kept are given first, then the stream's own reader is read.
 */
function readFromNow(stream: ReadableStream<ProviderPart>) {
  const source = stream.getReader();
  const kept: ProviderPart[] = [];
  let taken = false;
  // Settles once the read in flight when the step took over has landed: how the source ended, or null (not yet).
  const pumped = (async (): Promise<"done" | { error: unknown } | null> => {
    try {
      while (!taken) {
        const read = await source.read();
        if (read.done) return "done";
        kept.push(read.value);
      }
      return null;
    } catch (error) {
      return { error };
    }
  })();
  let next = 0;
  let end: Awaited<typeof pumped> | undefined; // undefined: the pump's last read has not landed yet
  const reader: PartReader = {
    async read() {
      // The parts kept first; then the one the read in flight when the step took over brings; then the source's own.
      if (next === kept.length && end === undefined) end = await pumped;
      if (next < kept.length) return { done: false, value: kept[next++]! };
      if (end === "done") return { done: true, value: undefined };
      if (end) throw end.error;
      return source.read();
    },
    cancel: (reason) => source.cancel(reason),
  };
  return {
    take() {
      taken = true;
      return reader;
    },
  };
}
