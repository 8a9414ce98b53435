// A model call sent before the write it follows has committed: a turn's first call while its
// opening write commits (first-call.ts), the call after MCP results while their writes commit
// (tool-loop.ts). The upstream works meanwhile, and nothing of its answer is followed until the
// step takes the call, which its caller does only once the write has committed: no item, delta or
// event of the call reaches an observer, a watcher or the database before that. A call that is
// discarded instead (the write failed, or the turn stopped first) is aborted.
import { type PartReader, openStep, type StepRequest } from "./model-step.js";
import type { ProviderPart } from "./provider-stream.js";

export interface CallAhead {
  /** The call's parts, for the step that follows the write: from then on the step reads or cancels them. */
  take(): Promise<PartReader>;
  /** Aborts the call, unless a step took it. */
  discard(): void;
}

/**
 * Sends the call `request` makes, given the signal it is to be made with (the turn's, and the
 * call's own, raised by `discard`). The request may still be in the making (a context to fit, tools
 * to list): it is sent as soon as it is made.
 */
export function callAhead(turnAbort: AbortSignal, request: (abort: AbortSignal) => Promise<StepRequest>): CallAhead {
  const discarded = new AbortController();
  const abort = AbortSignal.any([turnAbort, discarded.signal]);
  const parts = request(abort).then(openStep).then(readFromNow);
  // Its failure is the step's, once taken (or never, once discarded): not an unhandled rejection meanwhile.
  parts.catch(() => {});
  let taken = false;
  return {
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
