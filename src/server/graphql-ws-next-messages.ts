// The `next` messages of graphql-ws subscriptions, serialised once per result rather than once per
// subscriber. Subscribers of one dialog share each delta's execution result object
// (src/live/shared-subscription-results.ts), and graphql-ws would still JSON.stringify that
// result for each of them: with thousands of subscribers, the same string built thousands of
// times. Here the result's JSON is made once (and kept with the result object, so it goes when
// the result does); each subscriber's message only wraps it with its own subscription id. The
// wrapping is not copied around it either: the message goes out as three frames of one WebSocket
// message (its head, the shared payload, its end), so every subscriber's socket queues a reference
// to the same bytes. A thousand stalled subscribers of a 900 KB event hold 900 KB, not 900 MB.
//
// The messages are exactly the ones graphql-ws sends: {"id", "type": "next", "payload"} with the
// result's errors as GraphQLError.toJSON() gives them. Everything else about the protocol (errors
// from subscribe, complete, the client's complete) is still graphql-ws's.
import type { ExecutionResult } from "graphql";
import type { WebSocket } from "ws";

const payloads = new WeakMap<ExecutionResult, Buffer>();

function payloadOf(result: ExecutionResult): Buffer {
  let payload = payloads.get(result);
  if (!payload) {
    const { errors, ...withoutErrors } = result;
    const formatted = errors ? { ...withoutErrors, errors: errors.map((error) => error.toJSON()) } : withoutErrors;
    payload = Buffer.from(JSON.stringify(formatted));
    payloads.set(result, payload);
  }
  return payload;
}

const MESSAGE_END = Buffer.from("}");

/** The graphql-transport-ws `next` message for subscription `id`, as the UTF-8 frames sent; the
 * middle one is the result's shared payload. */
export function nextMessageFrames(id: string, result: ExecutionResult): [Buffer, Buffer, Buffer] {
  return [Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`), payloadOf(result), MESSAGE_END];
}

/** The whole message, as one buffer (for comparison with graphql-ws's own). */
export const nextMessage = (id: string, result: ExecutionResult) => Buffer.concat(nextMessageFrames(id, result));

/**
 * Sends each result of `results` to `socket` as a `next` message of subscription `id`, each once
 * the previous one was handed to the socket (as graphql-ws does, so a client that stops reading
 * holds one message, not a queue). Returned to graphql-ws in place of `results`: it yields nothing
 * and ends when they do, so graphql-ws sends `complete` (or `error`, if they throw) after the last
 * message; its return() (the client completed, or the socket closed) stops them.
 */
export function sendAsNextMessages(
  socket: WebSocket,
  id: string,
  results: AsyncIterable<ExecutionResult>,
): AsyncIterableIterator<never> {
  const source = results[Symbol.asyncIterator]();
  let stopped = false;
  const sending: AsyncIterableIterator<never> = {
    async next() {
      for (;;) {
        const step = await source.next();
        if (step.done || stopped) return { done: true, value: undefined };
        await send(socket, nextMessageFrames(id, step.value));
      }
    },
    async return() {
      stopped = true;
      await source.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => sending,
  };
  return sending;
}

function send(socket: WebSocket, [head, payload, end]: [Buffer, Buffer, Buffer]) {
  return new Promise<void>((resolve, reject) => {
    if (socket.readyState !== socket.OPEN) return resolve();
    // binary: false: a text message, as graphql-ws clients expect (a Buffer is sent as binary
    // otherwise). The three fragments are sent in one synchronous run, so no other message on this
    // socket can come between them; an unmasked server frame carries the buffer itself, uncopied.
    socket.send(head, { binary: false, fin: false });
    socket.send(payload, { binary: false, fin: false });
    socket.send(end, { binary: false, fin: true }, (error) => (error ? reject(error) : resolve()));
  });
}
