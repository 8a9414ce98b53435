// Starts the yoga + `pg` peer (bench/peer/yoga-pg.ts) against the scenario's database. On
// PostgreSQL it is a process of its own, like dialogql's load. Embedded PGlite can only be opened
// by the process that holds it, so there the peer runs in the scenario's process, on PGlite's
// client instead of `pg` (dialogql's server is in that process too; the two are never timed at once).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type PeerDatabase, peerServer } from "../peer/yoga-pg.js";
import { spawnIpcChild } from "./ipc-child.js";
import { config, database } from "./store.js";

export const PEER_NAME = "yoga + pg";

export async function startPeer(): Promise<{ url: string; close(): Promise<void> }> {
  if (database.kind === "postgres") {
    const child = spawnIpcChild(
      path.join(path.dirname(new URL(import.meta.url).pathname), "../peer/yoga-pg-process.ts"),
      {
        DATABASE_URL: config.DATABASE_URL!,
        POOL_SIZE: String(config.DATABASE_POOL_SIZE),
      },
    );
    const { url } = await child.next<{ url: string }>("listening");
    return {
      url,
      close: () =>
        new Promise((resolve) => {
          child.process.once("exit", () => resolve());
          child.send({ type: "stop" });
        }),
    };
  }
  return servePeer({
    query: (sql, params) => database.query(sql, params),
    transaction: (work) =>
      database.transaction((session) => work({ query: (sql, params) => session.query(sql, params) })),
  });
}

/** The peer serving `db` in this process, on a free loopback port; `close` also runs `end` (its pool's). */
export async function servePeer(db: PeerDatabase, end?: () => Promise<void>) {
  const server = createServer(peerServer(db));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await end?.();
    },
  };
}
