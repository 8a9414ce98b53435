// The `next` messages of graphql-ws subscriptions, serialised once per result rather than once per
// subscriber. Subscribers of one dialog share each delta's execution result object
// (src/server/shared-subscription-results.ts), and graphql-ws would still JSON.stringify that
// result for each of them: with thousands of subscribers, the same string built thousands of
// times. Here the result's JSON is made once (and kept with the result object, so it goes when
// the result does); each subscriber's message only wraps it with its own subscription id. The
// wrapping is not copied around a large one either: the message goes out as three frames of one
// WebSocket message (its head, the shared payload, its end), so every subscriber's socket queues a
// reference to the same bytes. A thousand stalled subscribers of a 900 KB event hold 900 KB, not
// 900 MB. A payload of up to 16 KB is copied into one buffer per subscriber instead: one frame
// costs less to write than three (measured in the fan-out bench: server CPU per delta 190 → 154 ms
// at 5,000 subscribers), and a stalled subscriber then holds at most 16 KB of its own. That buffer
// is the whole WebSocket frame, written to the TCP socket in one write (issue 32: one frame
// header and one write per subscriber per delta less than through ws; 12.5-13.1 -> 9.3-12.0 µs of
// CPU per delivered delta at 1,000 viewers), and the subscribers whose subscription ids agree share
// it: one frame per payload, not one per subscriber (sharedTextFrame).
//
// The messages are exactly the ones graphql-ws sends: {"id", "type": "next", "payload"} with the
// result's errors as GraphQLError.toJSON() gives them. Everything else about the protocol (errors
// from subscribe, complete, the client's complete) is still graphql-ws's.
import type { ExecutionResult } from "graphql";
import type { Socket } from "node:net";
import type { WebSocket } from "ws";
import type { DirectLane, DirectWrite } from "../live/direct-delivery.js";
import { holdUntilTurnEnds, isFullThisTurn, isHeldThisTurn } from "../connections/coalesced-writes.js";
import { releaseSoon } from "./paced-releases.js";

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

const headOf = (id: string) => Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`);

/** The graphql-transport-ws `next` message for subscription `id`, as the UTF-8 frames sent; the
 * middle one is the result's shared payload. */
export function nextMessageFrames(id: string, result: ExecutionResult): [Buffer, Buffer, Buffer] {
  return [headOf(id), payloadOf(result), MESSAGE_END];
}

/** The whole message, as one buffer (for comparison with graphql-ws's own). */
export const nextMessage = (id: string, result: ExecutionResult) => Buffer.concat(nextMessageFrames(id, result));

type Wire = Pick<Socket, "cork" | "uncork" | "write" | "writableLength">;

/**
 * Sends each result of `results` to `socket` as a `next` message of subscription `id`, each once
 * the previous one was handed to the kernel (as graphql-ws does, so a client that stops reading
 * holds one message, not a queue). Returned to graphql-ws in place of `results`: it yields nothing
 * and ends when they do, so graphql-ws sends `complete` (or `error`, if they throw) after the last
 * message; its return() (the client completed, or the socket closed) stops them.
 * `wire` is the TCP socket under `socket`: corked around a message of three frames, they leave in
 * one write (one system call) instead of three. With `lane`, results of live deltas may also be
 * written directly, while this is waiting for the next one (src/live/direct-delivery.ts).
 */
export function sendAsNextMessages(
  socket: WebSocket,
  id: string,
  results: AsyncIterable<ExecutionResult>,
  wire?: Wire,
  lane?: DirectLane,
): AsyncIterableIterator<never> {
  const source = results[Symbol.asyncIterator]();
  const head = headOf(id);
  let stopped = false;
  // The direct lane needs the TCP socket (its writes of a turn are held together): without it, none.
  if (lane && wire) lane.write = directWriter(socket, head, wire);
  const sending: AsyncIterableIterator<never> = {
    async next() {
      for (;;) {
        const step = await source.next();
        if (step.done || stopped) return { done: true, value: undefined };
        const written = send(socket, wire, head, payloadOf(step.value));
        if (written) await written;
      }
    },
    async return() {
      stopped = true;
      if (lane) lane.write = null;
      // Nothing more is written from here; the subscription's stream is released with others in
      // a later turn, so a storm of closing sockets does not hold the loop (paced-releases.ts).
      await releaseSoon(() => source.return?.());
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => sending,
  };
  return sending;
}

/**
 * Writes one message; returns a promise only when it is not all in the kernel yet (the socket is
 * backed up), to be awaited before the next. A subscriber that keeps up costs no promise and no
 * callback per message here.
 */
function send(socket: WebSocket, wire: Wire | undefined, head: Buffer, payload: Buffer): Promise<void> | undefined {
  if (socket.readyState !== socket.OPEN) return undefined;
  let failed: Error | null | undefined;
  let settle: ((error: Error | null | undefined) => void) | null = null;
  writeMessage(socket, wire, head, payload, (error) => (settle ? settle(error) : (failed = error ?? null)));
  if (failed === null || (failed === undefined && socket.bufferedAmount === 0)) return undefined;
  if (failed) return Promise.reject(failed);
  return new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
}

/**
 * The direct lane's writer: the socket is held until the turn ends (src/connections/coalesced-writes.ts),
 * so a burst of payloads (Redis hands over several in one read once the instance is busy) leaves
 * in one system call per socket, not one per payload; what was written in this turn is not a
 * backlog, up to MAX_HELD_BYTES a turn (a larger burst is declined past it). A socket that the
 * kernel does not take it all from at the turn's end has it unsent then, and declines until it is
 * sent (the payload takes the usual chain, which waits for it).
 */
function directWriter(socket: WebSocket, head: Buffer, wire: Wire): DirectWrite {
  return (result) => {
    if (socket.readyState !== socket.OPEN) return "declined";
    if (socket.bufferedAmount > 0 && !isHeldThisTurn(wire)) return "declined";
    if (isFullThisTurn(wire)) return "declined";
    holdUntilTurnEnds(wire);
    writeMessage(socket, wire, head, payloadOf(result), ignore);
    return "flushed";
  };
}

// A write error is the socket's: ws closes it and graphql-ws stops the subscription.
const ignore = () => undefined;

function writeMessage(
  socket: WebSocket,
  wire: Wire | undefined,
  head: Buffer,
  payload: Buffer,
  /** Called once the message is sent, or with why not (null or nothing on success). */
  done: (error?: Error | null) => void,
) {
  // binary: false: a text message, as graphql-ws clients expect (a Buffer is sent as binary
  // otherwise). The three fragments are sent in one synchronous run, so no other message on this
  // socket can come between them; an unmasked server frame carries the buffer itself, uncopied.
  if (payload.length <= COPY_UP_TO) {
    // A small payload is cheaper copied into one buffer: one WebSocket frame instead of three.
    // Framed here, header and all, and written to the TCP socket in one write: what ws does for an
    // unmasked, uncompressed server frame (this server negotiates no compression), without its
    // header buffer and two writes per subscriber per delta.
    // Only with no extension negotiated: a compressed socket's frames must go through ws's sender.
    const frame = wire && socket.extensions === "" && sharedTextFrame(head, payload);
    if (frame) wire!.write(frame, done);
    else socket.send(Buffer.concat([head, payload, MESSAGE_END]), { binary: false }, done);
    return;
  }
  wire?.cork();
  socket.send(head, { binary: false, fin: false });
  socket.send(payload, { binary: false, fin: false });
  socket.send(MESSAGE_END, { binary: false, fin: true }, done);
  wire?.uncork();
}

const COPY_UP_TO = 16 * 1024;

// A payload's frame, made for the first subscriber that sent it and kept with the payload (it goes
// when the payload does). Subscribers whose subscription ids agree send the same message: the
// frame is made once and every socket queues the same buffer, instead of a buffer and three
// copies per subscriber per delta. Clients that number their operations from "1" (one
// subscription per connection, as most viewers hold; dialogql's own clients do,
// src/client/operation-ids.ts) agree; random ids each get their own frame.
const framesOfPayload = new WeakMap<Buffer, { head: Buffer; frame: Buffer | null }[]>();
/** Heads kept a payload: the few ids its subscribers share ("1", and "2" after a resubscribe…);
 * past them, random ids are framed each their own without making every subscriber scan more. */
const HEADS_PER_PAYLOAD = 4;

function sharedTextFrame(head: Buffer, payload: Buffer): Buffer | null {
  let shared = framesOfPayload.get(payload);
  if (shared) for (const each of shared) if (each.head === head || each.head.equals(head)) return each.frame;
  const frame = textFrame(head, payload);
  if (!shared) framesOfPayload.set(payload, (shared = []));
  if (shared.length < HEADS_PER_PAYLOAD) shared.push({ head, frame });
  return frame;
}

/** One final text frame (RFC 6455 5.2, unmasked) of `head`, `payload` and "}"; null past 64 KB. */
function textFrame(head: Buffer, payload: Buffer): Buffer | null {
  const length = head.length + payload.length + MESSAGE_END.length;
  if (length > 0xffff) return null;
  const headerLength = length < 126 ? 2 : 4;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN, text
  if (length < 126) frame[1] = length;
  else {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  }
  head.copy(frame, headerLength);
  payload.copy(frame, headerLength + head.length);
  MESSAGE_END.copy(frame, headerLength + head.length + payload.length);
  return frame;
}
