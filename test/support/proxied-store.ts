// A store whose PostgreSQL connections go through a TCP proxy the test controls (cut, pause, play
// a shutdown), for the fault tests that take the database away from one instance only.
import { openStore, type Store } from "../../src/store/store.js";
import { configWith } from "./database.js";
import { startTcpProxy } from "./tcp-proxy.js";

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;

/** Opens a store on the test database through a new proxy; `connectTimeoutMs` bounds a connect while it is cut. */
export async function openProxiedStore(connectTimeoutMs: number): Promise<{ store: Store; proxy: TcpProxy }> {
  const url = new URL(process.env.DATABASE_URL!);
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = `127.0.0.1:${proxy.port}`;
  const store = await openStore(
    configWith({ DATABASE_URL: url.toString(), DATABASE_CONNECT_TIMEOUT_MS: String(connectTimeoutMs) }),
  );
  return { store, proxy };
}
