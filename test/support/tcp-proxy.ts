// A TCP proxy in front of PostgreSQL that the test can stop and start: from a server's point of
// view, the database goes away (connections drop, new ones are refused) and comes back. Or it can
// stall: connections stay open and new ones are accepted, but every byte is swallowed, as in a
// network partition; when the stall ends, the connections it swallowed bytes of are dropped (their
// protocol state is lost) and new ones work again.
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { atEveryFileEnd } from "./file-scope.js";
import { freePort } from "./redis-server.js";

const proxies = new Set<{ stop: () => Promise<void> }>();
atEveryFileEnd(async () => {
  for (const proxy of proxies) await proxy.stop();
  proxies.clear();
});

export async function startTcpProxy(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let stalled = false;
  const swallowedFrom = new Set<Socket>();

  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("error", () => undefined);
          socket.once("close", () => sockets.delete(socket));
        }
        // Not pipe(): each chunk is forwarded unless the proxy is stalling.
        const forward = (from: Socket, to: Socket) =>
          from.on("data", (chunk) => {
            if (stalled) swallowedFrom.add(from).add(to);
            else to.write(chunk);
          });
        forward(client, upstream);
        forward(upstream, client);
        client.once("close", () => upstream.destroy());
        upstream.once("close", () => client.destroy());
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });

  const proxy = {
    port,
    start,
    stall: () => void (stalled = true),
    unstall() {
      stalled = false;
      for (const socket of swallowedFrom) socket.destroy();
      swallowedFrom.clear();
    },
    /** Drops every connection and refuses new ones, as a database that went down. */
    async stop() {
      for (const socket of sockets) socket.destroy();
      const closing = server;
      server = null;
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
  proxies.add(proxy);
  await start();
  return proxy;
}
