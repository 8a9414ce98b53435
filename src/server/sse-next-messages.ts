// GraphQL subscriptions over SSE, written the way graphql-ws's are (src/server/graphql-ws-next-messages.ts):
// each result serialised once for every subscriber that receives it, and a subscriber that keeps up
// written to by its subscription's direct lane (src/live/direct-delivery.ts), one synchronous loop
// per delta for all of them.
//
// Yoga's own SSE processor made each message per subscriber through a chain of about a dozen
// promises (a web ReadableStream pulled by the server adapter through a Node Readable, each pull
// stringifying the same shared result again and encoding it twice). With a hundred SSE subscribers
// of one busy dialog (bench/soak.ts) that chain was most of the instance's time, and another
// tenant's requests waited behind it. Here a subscription's messages are pushed into one Node
// Readable per response, which the server adapter pipes into the HTTP response: a push writes to
// the socket at once while it keeps up, and is held (in order) while it does not. Everything that
// reaches the response goes through that one Readable, so the lane's messages and the usual chain's
// cannot overtake each other; the lane writes only when the chain is idle (the stream waits for its
// next payload) and the Readable holds nothing, so a message it writes is the next one in order.
//
// The wire format is Yoga's, which graphql-sse's "distinct connections" clients read: a comment
// first (some browsers wait for a first byte), `event: next` with the result as `data`, a comment
// every 12 s as a keep-alive, and `event: complete` when the subscription ends. Only subscriptions
// (an async iterable result for a request that accepts text/event-stream) take this path; anything
// else is Yoga's.
import type { ExecutionResult, GraphQLError } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { directLaneOf, type DirectWrite } from "../live/direct-delivery.js";
import { releaseSoon } from "./paced-releases.js";

const KEEP_ALIVE_MS = 12_000;
const COMMENT = Buffer.from(":\n\n");
const COMPLETE = Buffer.from("event: complete\ndata:\n\n");
const HEADERS = {
  "content-type": "text/event-stream",
  connection: "keep-alive",
  "cache-control": "no-cache",
  "content-encoding": "none",
};

// Subscribers of one dialog share each delta's result object (src/server/shared-subscription-results.ts).
const messages = new WeakMap<ExecutionResult, Buffer>();

/** The `next` event of `result`, made once per result object. */
export function nextEvent(result: ExecutionResult): Buffer {
  let message = messages.get(result);
  if (!message) {
    message = Buffer.from(`event: next\ndata: ${JSON.stringify(withoutInternals(result))}\n\n`);
    messages.set(result, message);
  }
  return message;
}

/** What Yoga leaves out of a result it sends: the HTTP extensions, an error's `http` and `unexpected`. */
function withoutInternals(result: ExecutionResult): object {
  if (!result.errors?.length && !result.extensions?.http) return result;
  const { errors, extensions, ...rest } = result;
  const { http: _http, ...otherExtensions } = extensions ?? {};
  return {
    ...rest,
    ...(errors ? { errors: errors.map(errorWithoutInternals) } : {}),
    ...(Object.keys(otherExtensions).length ? { extensions: otherExtensions } : {}),
  };
}

function errorWithoutInternals(error: GraphQLError) {
  const json = typeof error.toJSON === "function" ? error.toJSON() : { message: String(error) };
  if (!json.extensions) return json;
  const { http: _http, unexpected: _unexpected, ...extensions } = json.extensions;
  return { ...json, extensions: Object.keys(extensions).length ? extensions : undefined };
}

/**
 * Sends subscription results over SSE through the server's own stream (see above). It runs after
 * Yoga's result processors have chosen, and takes only what Yoga would have sent over SSE.
 */
export function useSseNextMessages(): Plugin {
  // The GraphQL context of each subscription is the request's server context (one operation per
  // request; a batch gets contexts of its own and stays with Yoga).
  const subscribed = new WeakSet<object>();
  return {
    onSubscribe({ args }) {
      if (isObject(args.contextValue)) subscribed.add(args.contextValue);
    },
    onResultProcess({ request, result, serverContext, setResultProcessor }) {
      if (!subscribed.has(serverContext) || !isAsyncIterable(result)) return;
      if (!(request.headers.get("accept") ?? "").includes("text/event-stream")) return;
      const { res } = serverContext as { res?: ServerResponse };
      setResultProcessor((results, fetchAPI) => {
        const body = eventStream(results as AsyncIterable<ExecutionResult>, res, directLaneOf(serverContext));
        return new fetchAPI.Response(body as unknown as BodyInit, { status: 200, headers: HEADERS });
      }, "text/event-stream");
    },
  };
}

/**
 * The response body: every result of `results` as a `next` event, then `complete`. `response` is
 * the HTTP response it is piped into (absent when the app is called without a server), whose
 * unsent bytes the direct lane looks at.
 */
function eventStream(
  results: AsyncIterable<ExecutionResult>,
  response: ServerResponse | undefined,
  lane: ReturnType<typeof directLaneOf>,
): Readable {
  const source = results[Symbol.asyncIterator]();
  let stopped = false;
  let wanted: (() => void) | null = null;
  const stream = new Readable({
    read() {
      const resume = wanted;
      wanted = null;
      resume?.();
    },
    destroy(error, callback) {
      stop();
      callback(error);
    },
  });
  const keepAlive = setInterval(() => stream.readableLength === 0 && stream.push(COMMENT), KEEP_ALIVE_MS);
  keepAlive.unref();
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(keepAlive);
    lane.write = null;
    wanted?.();
    // Released with others in a later turn, so a storm of closing streams does not hold the loop
    // (src/server/paced-releases.ts).
    void releaseSoon(() => source.return?.());
  };

  /** The stream has handed everything to the response, and the response is not backed up. */
  const caughtUp = () =>
    !stopped && stream.readableFlowing === true && stream.readableLength === 0 && !response?.writableNeedDrain;
  lane.write = directWriter(stream, response, caughtUp);

  stream.push(COMMENT);
  void (async () => {
    try {
      for (;;) {
        const step = await source.next();
        if (stopped) return;
        if (step.done) break;
        // Held (in order) while the response is backed up; the next result is taken once it drains.
        if (!stream.push(nextEvent(step.value))) await new Promise<void>((resume) => (wanted = resume));
        if (stopped) return;
      }
      stopped = true;
      clearInterval(keepAlive);
      lane.write = null;
      stream.push(COMPLETE);
      stream.push(null);
    } catch (error) {
      // As Yoga's processor does: a stream that fails is cut, not completed.
      stream.destroy(error as Error);
    }
  })();
  return stream;
}

/** The direct lane's writer: a stream with anything still unsent declines, and so keeps its order and its bound. */
function directWriter(stream: Readable, response: ServerResponse | undefined, caughtUp: () => boolean): DirectWrite {
  return (result, onFlushed) => {
    if (!caughtUp()) return "declined";
    stream.push(nextEvent(result));
    if (!response?.writableNeedDrain) return "flushed";
    let called = false;
    const flushed = () => {
      if (called) return;
      called = true;
      response.off("close", flushed);
      response.off("drain", flushed);
      onFlushed();
    };
    response.once("drain", flushed);
    response.once("close", flushed);
    return "queued";
  };
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;
