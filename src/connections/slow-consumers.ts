// Disconnects clients that stop reading. Subscriptions already wait for each message to be handed
// to the kernel before producing the next (graphql-ws awaits every send; SSE waits for 'drain'),
// so a stalled subscriber holds one message per subscription, not an ever-growing queue; but it
// would hold it, and its subscription, forever. Subscription sockets (WebSocket after the upgrade,
// SSE responses) are watched here: one whose unsent bytes have not drained once within the timeout
// is destroyed. A history subscriber then resumes with afterSeq and misses nothing. (Only
// subscriptions: a plain response of many megabytes to a slow reader legitimately stays queued.)
// One whose unsent bytes pass `maxQueuedBytes` is destroyed at once, whatever the time: with a
// hundred subscriptions of large events, "one message per subscription" is still a lot.
import type { Socket } from "node:net";
import { logger } from "../logger.js";
import { metrics } from "../metrics.js";

export function createSlowConsumerWatchdog(options: { timeoutMs: number; maxQueuedBytes: number }) {
  /** socket → when it was last seen with nothing left to send. */
  const lastDrained = new Map<Socket, number>();

  const check = () => {
    const now = Date.now();
    for (const [socket, drainedAt] of lastDrained) {
      const buffered = socket.writableLength;
      if (buffered > options.maxQueuedBytes)
        drop(socket, `${buffered} bytes unsent, more than ${options.maxQueuedBytes}`);
      else if (buffered === 0) lastDrained.set(socket, now);
      else if (now - drainedAt > options.timeoutMs) drop(socket, `${buffered} bytes unsent for ${now - drainedAt} ms`);
    }
  };
  const drop = (socket: Socket, why: string) => {
    logger.info(`disconnecting a slow client ${socket.remoteAddress}:${socket.remotePort} (${why})`);
    lastDrained.delete(socket);
    socket.destroy();
    metrics.slowClientsDisconnected.inc();
  };
  // Often enough to act within about a third past the timeout; unref'd so it never keeps the
  // process alive.
  const timer = setInterval(check, Math.max(50, Math.min(1_000, options.timeoutMs / 3)));
  timer.unref();

  return {
    watch(socket: Socket) {
      if (lastDrained.has(socket) || socket.destroyed) return;
      lastDrained.set(socket, Date.now());
      socket.on("drain", () => lastDrained.has(socket) && lastDrained.set(socket, Date.now()));
      socket.once("close", () => lastDrained.delete(socket));
    },
    close() {
      clearInterval(timer);
      lastDrained.clear();
    },
  };
}
