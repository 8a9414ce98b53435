// MCP connections kept open between turns, so a turn does not pay the handshake (initialize, the
// initialized notification, the stream probe) before its listing or its call. One connection per
// tenant, server URL and headers: a session belongs to those credentials and that tenant, never
// another's. Bounded: at most `maxIdle` unused connections are kept, each closed after `idleMs`
// unused; one that fails at the protocol level is closed and not handed out again.
import { createHash } from "node:crypto";
import type { Config } from "../config.js";
import {
  type McpConnection,
  type McpConnectionSettings,
  connectionSettingsFrom,
  connectMcp,
} from "./mcp-connection.js";
import type { McpServerSpec } from "./mcp-request.js";

/** How MCP servers are reached, and the connections kept open between turns. */
export interface McpSettings extends McpConnectionSettings {
  pool: McpPool;
}

export function mcpSettingsFrom(
  config: Pick<Config, "MCP_ALLOWED_SERVERS" | "MCP_TOOL_TIMEOUT_MS" | "NODE_ENV" | "MAX_EVENT_BYTES">,
): McpSettings {
  const settings = connectionSettingsFrom(config);
  return { ...settings, pool: createMcpPool(settings, POOL) };
}

/** Unused connections kept: a minute each, 64 at most. */
const POOL = { idleMs: 60_000, maxIdle: 64 };

export interface McpPoolOptions {
  /** How long an unused connection stays open. */
  idleMs: number;
  /** How many unused connections are kept at most (the oldest is closed first). */
  maxIdle: number;
}

interface Entry {
  connection: Promise<McpConnection>;
  /** Stops its connecting when the pool closes (one signal per connection: the SDK listens on it). */
  stop: AbortController;
  users: number;
  idleTimer: NodeJS.Timeout | null;
  idleSince: number;
}

/** A connection lent to one turn: `release` when the turn is done with it, `discard` when it failed. */
export interface Lease {
  connection: McpConnection;
  /** Whether it was opened for an earlier turn (a failure may then be its staleness). */
  reused: boolean;
  release(): void;
  discard(): void;
}

export interface McpPool {
  acquire(server: McpServerSpec, tenantId: string, signal: AbortSignal): Promise<Lease>;
  close(): Promise<void>;
}

export function createMcpPool(settings: McpConnectionSettings, options: McpPoolOptions): McpPool {
  const entries = new Map<string, Entry>();

  const remove = (key: string, entry: Entry) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    void entry.connection.then((connection) => connection.close()).catch(() => {});
  };
  const keepIdle = (key: string, entry: Entry) => {
    entry.idleSince = performance.now();
    entry.idleTimer = setTimeout(() => remove(key, entry), options.idleMs);
    entry.idleTimer.unref();
    const idle = [...entries].filter(([, candidate]) => candidate.users === 0);
    for (const [oldKey, oldest] of idle.sort(([, a], [, b]) => a.idleSince - b.idleSince)) {
      if (idle.length-- <= options.maxIdle) break;
      remove(oldKey, oldest);
    }
  };

  return {
    async acquire(server, tenantId, signal) {
      const key = keyOf(server, tenantId);
      let entry = entries.get(key);
      const reused = entry !== undefined;
      if (!entry) {
        // Opened for the pool, not for this turn: another turn may be waiting on it too.
        const stop = new AbortController();
        const connection = connectMcp(server, settings, stop.signal);
        entry = { connection, stop, users: 0, idleTimer: null, idleSince: 0 };
        entries.set(key, entry);
        const opened = entry;
        connection.catch(() => remove(key, opened));
      }
      const lent = entry;
      lent.users++;
      if (lent.idleTimer) clearTimeout(lent.idleTimer);
      lent.idleTimer = null;
      let returned = false;
      const giveBack = (keep: boolean) => {
        if (returned) return;
        returned = true;
        lent.users--;
        if (!keep) remove(key, lent);
        else if (lent.users === 0 && entries.get(key) === lent) keepIdle(key, lent);
      };
      try {
        const connection = await untilAborted(lent.connection, signal);
        return { connection, reused, release: () => giveBack(true), discard: () => giveBack(false) };
      } catch (error) {
        giveBack(false);
        throw error;
      }
    },
    async close() {
      const open = [...entries];
      entries.clear();
      await Promise.all(
        open.map(async ([, entry]) => {
          entry.stop.abort();
          if (entry.idleTimer) clearTimeout(entry.idleTimer);
          await entry.connection.then((connection) => connection.close()).catch(() => {});
        }),
      );
    },
  };
}

/** The pool's key: a digest, so the headers (tokens) are not kept as a readable string. */
function keyOf(server: McpServerSpec, tenantId: string) {
  const headers = Object.entries(server.headers)
    .map(([name, value]) => [name.toLowerCase(), value])
    .sort(([a], [b]) => (a! < b! ? -1 : 1));
  return createHash("sha256")
    .update(JSON.stringify([tenantId, server.serverUrl, headers]))
    .digest("hex");
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
