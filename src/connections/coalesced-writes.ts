// A connection's writes of one turn of the event loop leave in one system call. Node corks a
// response only until the next tick, so each SSE message went out in a write of its own: a
// hundred subscribers of a busy dialog cost a hundred system calls per delta, and in the soak
// (bench/soak.ts) those calls were a quarter of the instance's time while it was saturated, when
// Redis hands over many payloads at once and a subscriber has several messages to send. Held until
// the loop's check phase (setImmediate), they are one write per subscriber per turn; a lone
// message waits for the rest of the turn only (well under a millisecond when the loop is idle).
// A graphql-ws socket's messages written by the direct lane are held the same way
// (`holdUntilTurnEnds`, src/server/graphql-ws-next-messages.ts): an instance that receives a
// dialog's text deltas through Redis gets them in bursts once it is busy, and writing each to each
// of a thousand sockets in a system call of its own made it slower the further behind it was.
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { logger } from "../logger.js";

export function coalesceWrites(response: ServerResponse) {
  const write = response.write;
  let corked = false;
  response.write = function (this: ServerResponse, ...args: Parameters<ServerResponse["write"]>) {
    const socket = response.socket;
    if (!corked && socket && !socket.destroyed) {
      corked = true;
      socket.cork();
      setImmediate(() => {
        corked = false;
        socket.uncork();
      });
    }
    return write.apply(this, args as never);
  } as ServerResponse["write"];
}

type Corkable = Pick<Socket, "cork" | "uncork"> & {
  /** What it has unsent (a TCP socket's; counted as none without it). */
  readonly writableLength?: number;
  destroy?(error?: Error): unknown;
};

// Every socket held in this turn, released together by one setImmediate (not one per socket: a
// thousand subscribers of a dialog are a thousand sockets held in the same turn).
const heldThisTurn = new Set<Corkable>();

/**
 * What a socket may be given in one turn while it is held: a burst that would hold more (Redis
 * hands over a backlog in one read; a single large event) is written the usual way instead, which
 * waits for the socket. The kernel takes what is held only at the turn's end, so without a cap a
 * reader that has stopped reading would be handed a whole burst, for every subscription on it.
 */
export const MAX_HELD_BYTES = 64 * 1024;

function releaseHeld() {
  const held = [...heldThisTurn];
  heldThisTurn.clear();
  // One socket's failure is its own: the others are released all the same.
  for (const socket of held) {
    try {
      socket.uncork();
    } catch (error) {
      logger.warn(`[ws] a socket failed as its writes of one turn were released: ${(error as Error).message}`);
      socket.destroy?.(error as Error);
    }
  }
}

/** Corks `socket` until the loop's check phase, unless it is held already in this turn. */
export function holdUntilTurnEnds(socket: Corkable) {
  if (heldThisTurn.has(socket)) return;
  socket.cork();
  heldThisTurn.add(socket);
  if (heldThisTurn.size === 1) setImmediate(releaseHeld);
}

/** `socket` is held in this turn: what it has unsent was written in this turn, not left over from a backlog. */
export const isHeldThisTurn = (socket: Corkable) => heldThisTurn.has(socket);

/** `socket` is held in this turn with MAX_HELD_BYTES or more unsent: it takes no more in this turn. */
export const isFullThisTurn = (socket: Corkable) =>
  heldThisTurn.has(socket) && (socket.writableLength ?? 0) >= MAX_HELD_BYTES;
