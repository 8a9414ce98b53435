// Child process: the yoga + `pg` peer (bench/peer/yoga-pg.ts) on its own event loop, with its own
// pool of the same size as dialogql's, against DATABASE_URL. Tells its parent the URL it listens on.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { type PeerDatabase, peerServer } from "./yoga-pg.js";

// "timestamp without time zone" holds UTC wall-clock time, as Prisma stores it.
pg.types.setTypeParser(1114, (text) => new Date(`${text.replace(" ", "T")}Z`));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const db: PeerDatabase = {
  query: async (sql, params) => (await pool.query(sql, params)).rows,
  async transaction(work) {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await work({ query: async (sql, params) => (await client.query(sql, params)).rows });
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  },
};

const server = createServer(peerServer(db));
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.send!({ type: "listening", url: `http://127.0.0.1:${port}/graphql` });
});
process.on("message", (message: { type: string }) => {
  if (message.type === "stop") server.close(() => void pool.end().then(() => process.exit(0)));
});
