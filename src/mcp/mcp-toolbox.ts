// The MCP servers of one turn: their tools (listed once along a chain, as OpenAI does: a listing
// already in the context is reused), which of them need approval, and the calls. Connections
// come from the pool on first use (src/mcp/mcp-pool.ts: kept open between turns) and go back to
// it with the turn; one that failed at the protocol level is closed instead.
import type { StoredEvent } from "../formats/stored-event.js";
import { logger } from "../logger.js";
import { type McpCallResult, type McpToolInfo, protocolError } from "./mcp-connection.js";
import type { Lease, McpSettings } from "./mcp-pool.js";
import { LIST_TOOLS } from "./mcp-events.js";
import { type McpServerSpec, needsApproval } from "./mcp-request.js";

export interface McpTool {
  server: McpServerSpec;
  info: McpToolInfo;
}

/** A server's listing as this turn got it: listed now (an item to show) or read from the context. */
export interface McpListing {
  server: McpServerSpec;
  tools: McpToolInfo[];
  error: string | null;
  /** false when an earlier response in the chain listed it. */
  fresh: boolean;
}

export interface McpToolbox {
  /** Each server's listing, in the request's order (the fresh ones are items the turn writes). */
  readonly listings: readonly McpListing[];
  /** The tools offered to the model, by the name the model calls them. */
  readonly tools: ReadonlyMap<string, McpTool>;
  /** Whether a call of `name` waits for the user's approval first. */
  needsApproval(name: string): boolean;
  server(label: string): McpServerSpec | undefined;
  call(server: McpServerSpec, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult>;
  close(): Promise<void>;
}

/**
 * Lists the servers' tools, all at once (or reuses the context's listing); nothing is written
 * here, so a turn may list while its opening write commits (src/generation/first-call.ts). Tools
 * named like one already offered (`taken`, or an earlier server's) are left out, with a warning.
 */
export async function openToolbox(
  servers: readonly McpServerSpec[],
  settings: McpSettings,
  tenantId: string,
  context: readonly StoredEvent[],
  taken: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<McpToolbox> {
  const connections = turnConnections(settings, tenantId, signal);
  const tools = new Map<string, McpTool>();
  let listings: McpListing[];
  try {
    listings = await Promise.all(servers.map((server) => listingOf(server, context, connections, signal)));
  } catch (error) {
    await connections.release();
    throw error;
  }
  for (const listing of listings) {
    const { server } = listing;
    for (const info of listing.tools) {
      if (taken.has(info.name) || tools.has(info.name)) {
        logger.warn(`MCP server ${server.serverLabel}: tool ${info.name} is named like another tool; not offered`);
        continue;
      }
      tools.set(info.name, { server, info });
    }
  }
  return {
    listings,
    tools,
    needsApproval: (name) => {
      const tool = tools.get(name);
      return tool ? needsApproval(tool.server.requireApproval, name) : false;
    },
    server: (label) => servers.find((server) => server.serverLabel === label),
    async call(server, name, args, callSignal) {
      try {
        return await connections.use(server, (connection) => connection.callTool(name, args, callSignal), {
          failed: (result) => result.error?.type === "mcp_protocol_error",
          // Only a session the server no longer knows (404) surely did not run the tool: tried again.
          retry: (result) => result.error?.type === "mcp_protocol_error" && result.error.code === 404,
        });
      } catch (error) {
        if (callSignal.aborted) throw error;
        const failure = protocolError(error);
        return { text: `could not reach the MCP server ${server.serverLabel}: ${failure.message}`, error: failure };
      }
    },
    close: async () => connections.release(),
  };
}

type TurnConnections = ReturnType<typeof turnConnections>;

/** The turn's connections, one per server, lent by the pool on first use and given back with the turn. */
function turnConnections(settings: McpSettings, tenantId: string, signal: AbortSignal) {
  const leases = new Map<string, Promise<Lease>>();
  const lease = (server: McpServerSpec) => {
    let held = leases.get(server.serverLabel);
    if (!held) {
      held = settings.pool.acquire(server, tenantId, signal);
      leases.set(server.serverLabel, held);
      held.catch(() => leases.delete(server.serverLabel));
    }
    return held;
  };
  const discard = (server: McpServerSpec, held: Lease) => {
    leases.delete(server.serverLabel);
    held.discard();
  };
  return {
    /**
     * Runs `work` on the server's connection. A failure (thrown, or a result `failed` says is one)
     * closes the connection; on a connection an earlier turn opened it may be a stale session, so a
     * thrown error, or a result `retry` accepts, is tried once more on a fresh one.
     */
    async use<T>(
      server: McpServerSpec,
      work: (connection: Lease["connection"]) => Promise<T>,
      check: { failed: (result: T) => boolean; retry: (result: T) => boolean } = {
        failed: () => false,
        retry: () => false,
      },
    ): Promise<T> {
      for (let attempt = 0; ; attempt++) {
        const held = await lease(server);
        const again = held.reused && attempt === 0;
        try {
          const result = await work(held.connection);
          if (!check.failed(result)) return result;
          discard(server, held);
          if (!again || !check.retry(result)) return result;
        } catch (error) {
          if (signal.aborted) throw error;
          discard(server, held);
          if (!again) throw error;
        }
      }
    },
    async release() {
      const held = await Promise.allSettled(leases.values());
      for (const result of held) if (result.status === "fulfilled") result.value.release();
      leases.clear();
    },
  };
}

async function listingOf(
  server: McpServerSpec,
  context: readonly StoredEvent[],
  connections: TurnConnections,
  signal: AbortSignal,
): Promise<McpListing> {
  const earlier = earlierListing(server.serverLabel, context);
  if (earlier) return { server, tools: filtered(server, earlier), error: null, fresh: false };
  try {
    const tools = await connections.use(server, (connection) => connection.listTools(signal));
    return { server, tools: filtered(server, tools), error: null, fresh: true };
  } catch (error) {
    if (signal.aborted) throw error;
    return {
      server,
      tools: [],
      error: `could not list the tools of ${server.serverLabel}: ${protocolError(error).message}`,
      fresh: true,
    };
  }
}

const filtered = (server: McpServerSpec, tools: McpToolInfo[]) =>
  tools.filter(
    (tool) =>
      (!server.allowedTools || server.allowedTools.includes(tool.name)) &&
      (!server.readOnly || (tool.annotations as { readOnlyHint?: unknown } | null)?.readOnlyHint === true),
  );

/** The newest successful listing of the server in the context (its call names the server in args). */
function earlierListing(label: string, context: readonly StoredEvent[]): McpToolInfo[] | null {
  for (let at = context.length - 1; at >= 0; at--) {
    const event = context[at]!;
    if (event.type !== "TOOL_RESULT" || event.toolName !== LIST_TOOLS || event.isError) continue;
    const call = context.find((candidate) => candidate.type === "TOOL_CALL" && candidate.callId === event.callId);
    if ((call?.args as { server_label?: unknown } | null)?.server_label !== label) continue;
    try {
      const tools = JSON.parse(event.content ?? "");
      if (Array.isArray(tools)) return tools as McpToolInfo[];
    } catch {
      // a listing that does not read is listed again
    }
  }
  return null;
}
