// WebSocket upgrades at a pace the event loop can take. Completing one (the handshake, the
// graphql-ws connection and its connection_init) costs a fraction of a millisecond, but thousands
// arriving at once (the clients of an instance that died reconnect to the others) would hold the
// event loop for seconds and `/health` behind them. Upgrade requests wait here, in arrival order,
// and at most `perTick` are completed per turn of the event loop, so what arrived meanwhile (a
// health check, a write) is answered between them. One whose client left while it waited is
// dropped. Beyond `maxWaiting` waiting (more than the instance would hold open anyway), an upgrade
// is answered 503 with Retry-After, which WebSocket clients treat as a failed attempt to retry.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { metrics } from "../metrics.js";

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

export function paceUpgrades(
  limits: { perTick: number; maxWaiting: number },
  handle: UpgradeHandler,
  nextTick: (pump: () => void) => void = (pump) => void setImmediate(pump),
): UpgradeHandler {
  let waiting: [IncomingMessage, Duplex, Buffer][] = [];
  let head = 0;
  let pumpScheduled = false;

  const pump = () => {
    pumpScheduled = false;
    for (let done = 0; done < limits.perTick && head < waiting.length;) {
      const [request, socket, firstBytes] = waiting[head]!;
      waiting[head++] = undefined as never;
      if (socket.destroyed) continue;
      done++;
      handle(request, socket, firstBytes);
    }
    if (head === waiting.length) {
      waiting = [];
      head = 0;
    } else if (!pumpScheduled) {
      pumpScheduled = true;
      nextTick(pump);
    }
    metrics.upgradesWaiting.set(waiting.length - head);
  };

  return (request, socket, firstBytes) => {
    if (waiting.length - head >= limits.maxWaiting) {
      metrics.connectionsRefused.inc({ transport: "upgrade", limit: "waiting" });
      socket.end(
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
      );
      return;
    }
    waiting.push([request, socket, firstBytes]);
    metrics.upgradesWaiting.set(waiting.length - head);
    if (!pumpScheduled) {
      pumpScheduled = true;
      nextTick(pump);
    }
  };
}
