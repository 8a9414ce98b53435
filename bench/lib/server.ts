// Starts dialogql in this process on a free loopback port, after applying migrations.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { applyMigrations } from "../../src/db/migrate.js";
import { closeDatabase, config, database, store } from "./store.js";
import { buildApp } from "../../src/server/app.js";

export async function startInProcessServer() {
  await applyMigrations(database);
  const app = buildApp({ store, config });
  const server = createServer(app.listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}/graphql`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await closeDatabase();
    },
  };
}

export { graphql } from "./graphql-client.js";
