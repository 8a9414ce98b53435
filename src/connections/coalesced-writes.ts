// An event stream's writes of one turn of the event loop leave in one system call. Node corks a
// response only until the next tick, so each SSE message went out in a write of its own: a
// hundred subscribers of a busy dialog cost a hundred system calls per delta, and in the soak
// (bench/soak.ts) those calls were a quarter of the instance's time while it was saturated, when
// Redis hands over many payloads at once and a subscriber has several messages to send. Held until
// the loop's check phase (setImmediate), they are one write per subscriber per turn; a lone
// message waits for the rest of the turn only (well under a millisecond when the loop is idle).
import type { ServerResponse } from "node:http";

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
