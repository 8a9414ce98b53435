// A turn's first model call, sent while its opening write commits, so that the first token waits
// for the commit rather than the call's start waiting for the write (issue 27). It is made only
// when everything the call carries is known before the write commits: the context the turn
// continues is kept here (or is none: a new dialog), its input is parsed, and no approval is to be
// acted on first (a call run or a denial written goes before the model call). A turn with MCP
// servers lists their tools meanwhile too (a listing already in the context is reused, and a
// pooled connection lists in one request: src/mcp/mcp-pool.ts), and the call is sent once they are
// listed; the listings are written by the turn once its opening write has committed. The budget
// check stays before it (a refused caller calls no model). Nothing of the call's stream is read
// until the write has committed (call-ahead.ts): the turn, which starts only then, reads it as its
// first step's (tool-loop.ts), so no delta is written, published or sent before the commit. A
// write that fails (the parent gone, a lock not had in time, a conflict) discards the call, which
// is aborted, and its error is the answer as before.
import { callAhead } from "./call-ahead.js";
import { type CallBasis, modelContext, openTurnToolbox, stepRequest } from "./model-call.js";
import { toModelMessages } from "./model-messages.js";
import type { FirstCall } from "./turn-request.js";
import type { TurnSink } from "./turn-sink.js";

/** Sends the turn's first model call now, when it can be made before the turn is opened; else null. */
export function openFirstCall(basis: CallBasis, sink: TurnSink): FirstCall | null {
  const { request } = basis;
  // A retry of an idempotent request calls no model, and only its write can tell that it is one.
  if (request.idempotency) return null;
  if (request.mcp?.approvals.length) return null;
  const foreseen = sink.foresee?.(request);
  if (!foreseen) return null;
  let prepared!: FirstCall["prepared"];
  const call = callAhead(basis.abort, (abort) => {
    prepared = Promise.all([
      modelContext(basis, foreseen.context),
      openTurnToolbox(basis, foreseen.context, abort),
    ]).then(([context, toolbox]) => ({ context, messages: toModelMessages(context), toolbox }));
    return prepared.then(({ messages, toolbox }) => stepRequest({ ...basis, abort }, messages, toolbox, 0));
  });
  // Its failure is the turn's, awaited once the turn is open (or never, once discarded).
  prepared.catch(() => {});
  let taken = false;
  return {
    previousResponseId: foreseen.previousResponseId,
    prepared,
    sentAt: performance.now(),
    take() {
      taken = true;
      return call.take();
    },
    discard() {
      if (taken) return;
      call.discard();
      // Listed for a turn that will not use them: the connections go back to the pool.
      prepared.then(({ toolbox }) => toolbox?.close()).catch(() => {});
    },
  };
}
