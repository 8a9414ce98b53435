// Large answers take turns, so small ones do not wait behind them (docs/performance.md). A request becomes
// large when its budget is asked for a read of `largeAnswerRows` rows or more (a whole history of
// 10,000 events; a first page of 100 never is): it then waits for one of `largeAnswersAtOnce`
// turns before that read, and keeps its turn until its answer is made. Its JSON is made in slices
// (src/server/sliced-json.ts) with a turn of the event loop between them.
//
// Why both: once its rows have arrived, an answer of 10,000 events used to be one synchronous run
// of execution and JSON.stringify; a first page arriving meanwhile waited behind every such run
// queued before it (16 clients reading whole histories: a p99 of 1–1.5 s for the page). Slices
// alone are not enough, since the slices of every answer in production run in the same turn of
// the loop; and unbounded, the large reads also hold all of the tenant's database connections
// (TENANT_DB_CONCURRENCY) that the small request needs. With one turn (the default; two let the
// page wait twice as long, docs/performance.md), the loop runs at most one slice or one execution
// between two of a small request's steps, and the large reads leave the tenant's other
// connections free.
//
// A client that goes away gives its turn back and stops its answer: a queued request never
// starts its read, a read not yet started does not start, and the JSON stops at the next slice.
import { GraphQLError } from "graphql";
import { type Plugin, processRegularResult } from "graphql-yoga";
import pLimit from "p-limit";
import type { Limits } from "../limits.js";
import { stringifyInSlices } from "./sliced-json.js";

export interface LargeAnswers {
  /** For a request's budget: called before each read of `rows` rows; waits for a turn if it is large. */
  beforeRead(request: Partial<Request> | undefined): (rows: number) => Promise<void>;
  /** Makes a large request's JSON in slices and gives its turn back once the answer is made. */
  plugin(): Plugin;
}

type Turn = Promise<() => void>;

export function createLargeAnswers(limits: Pick<Limits, "largeAnswerRows" | "largeAnswersAtOnce">): LargeAnswers {
  const turns = pLimit(limits.largeAnswersAtOnce);
  // A subscription never takes a turn: it reads after its Response has gone out (after
  // onResponse), so it would keep one for its whole life; each event it delivers reads through a
  // budget of its own, made without turns (renewLoaders in src/server/context.ts).
  const turnOf = new WeakMap<Request, Turn>();

  function take(signal: AbortSignal): Turn {
    return new Promise((admitted, refused) => {
      void turns(
        () =>
          new Promise<void>((release) => {
            if (signal.aborted) return void (release(), refused(gone(signal)));
            const giveBack = () => release();
            signal.addEventListener("abort", giveBack, { once: true });
            admitted(() => (signal.removeEventListener("abort", giveBack), release()));
          }),
      );
    });
  }

  async function giveBack(request: Request) {
    const turn = turnOf.get(request);
    if (!turn) return;
    turnOf.delete(request);
    (await turn.catch(() => () => {}))();
  }

  return {
    beforeRead: (request) => async (rows) => {
      // Only HTTP requests (a fetch Request, with its signal) take turns: an operation over
      // graphql-ws is answered by graphql-ws, never through onResultProcess and onResponse.
      if (!request?.signal) return;
      request.signal.throwIfAborted();
      if (rows < limits.largeAnswerRows && !turnOf.has(request as Request)) return;
      let turn = turnOf.get(request as Request);
      if (!turn) turnOf.set(request as Request, (turn = take(request.signal)));
      await turn;
    },
    plugin: () => ({
      // Yoga has chosen its processor by now (its own plugin runs first); the regular JSON one
      // uses a result's own `stringify` when it has one, so the media type and status stay Yoga's.
      async onResultProcess({ request, result, resultProcessor, setResult }) {
        if (!turnOf.has(request) || resultProcessor !== processRegularResult) return;
        // Answers with errors or HTTP extensions take Yoga's own path (it rewrites them first).
        if (Array.isArray(result) || Symbol.asyncIterator in result || result.errors?.length || result.extensions?.http)
          return;
        const text = await stringifyInSlices(result, { signal: request.signal });
        setResult({ ...result, stringify: () => text! });
      },
      // Every answer ends here, errors included (and the abort listener covers a client gone).
      onResponse: ({ request }) => giveBack(request),
    }),
  };
}

const gone = (signal: AbortSignal) =>
  signal.reason instanceof Error ? signal.reason : new GraphQLError("The client closed the request.");
