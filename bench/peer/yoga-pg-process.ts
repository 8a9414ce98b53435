// Child process: the yoga + `pg` peer (bench/peer/yoga-pg.ts) on its own event loop, with its own
// pool of the same size as dialogql's, against DATABASE_URL. Tells its parent the URL it listens on.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pgPeerDatabase } from "./pg-peer-database.js";
import { peerServer } from "./yoga-pg.js";

const { db, pool } = pgPeerDatabase(process.env.DATABASE_URL, Number(process.env.POOL_SIZE ?? 10));

const server = createServer(peerServer(db));
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.send!({ type: "listening", url: `http://127.0.0.1:${port}/graphql` });
});
process.on("message", (message: { type: string }) => {
  if (message.type === "stop") server.close(() => void pool.end().then(() => process.exit(0)));
});
