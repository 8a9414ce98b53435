// A TCP proxy in front of PostgreSQL that the test can stop and start: from a server's point of
// view, the database goes away (connections drop, new ones are refused) and comes back. Or it can
// stall: connections stay open and new ones are accepted, but every byte is swallowed, as in a
// network partition; when the stall ends, the connections it swallowed bytes of are dropped (their
// protocol state is lost) and new ones work again. Or it can shut down as PostgreSQL does (`pg_ctl
// stop -m fast`): each open connection is sent PostgreSQL's FATAL 57P01 ("terminating connection
// due to administrator command") and closed, and a new one is answered FATAL 57P03 ("the database
// system is shutting down") after its startup message, until `start` again. It counts the bytes
// it forwards (`moved`), for tests of what a feature costs on the wire.
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
  let shuttingDown = false;
  const swallowedFrom = new Set<Socket>();

  const clients = new WeakSet<Socket>();
  /** Bytes forwarded so far: from clients to the server, and back. */
  const moved = { up: 0, down: 0 };
  const start = async () => {
    shuttingDown = false;
    if (server) return;
    await listen();
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        if (shuttingDown) return refuseAsShuttingDown(client, sockets);
        const upstream = createConnection(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("error", () => undefined);
          socket.once("close", () => sockets.delete(socket));
        }
        // Not pipe(): each chunk is forwarded unless the proxy is stalling.
        const forward = (from: Socket, to: Socket) =>
          from.on("data", (chunk) => {
            if (shuttingDown) return; // the connection is being closed with its FATAL message
            if (stalled) swallowedFrom.add(from).add(to);
            else {
              moved[clients.has(from) ? "up" : "down"] += chunk.length;
              to.write(chunk);
            }
          });
        clients.add(client);
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
    moved,
    start,
    stall: () => void (stalled = true),
    unstall() {
      stalled = false;
      for (const socket of swallowedFrom) socket.destroy();
      swallowedFrom.clear();
    },
    /** PostgreSQL's fast shutdown, as its clients see it; `start` ends it. */
    shutDown() {
      shuttingDown = true;
      for (const socket of sockets) {
        if (!clients.has(socket)) continue;
        socket.end(fatal("57P01", "terminating connection due to administrator command"));
      }
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

/** A PostgreSQL ErrorResponse message of severity FATAL. */
function fatal(code: string, message: string) {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const header = Buffer.alloc(5);
  header.write("E", 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

/** A connection made while the database shuts down: its startup message is answered 57P03. */
function refuseAsShuttingDown(client: Socket, sockets: Set<Socket>) {
  sockets.add(client);
  client.on("error", () => undefined);
  client.once("close", () => sockets.delete(client));
  client.once("data", () => client.end(fatal("57P03", "the database system is shutting down")));
}
