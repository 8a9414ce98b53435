// The MCP servers of one turn: their tools (listed once along a chain, as OpenAI does: a listing
// already in the context is reused), which of them need approval, and the calls. Connections
// open on first use and close with the turn.
import type { StoredEvent } from "../formats/stored-event.js";
import { logger } from "../logger.js";
import {
  type McpCallResult,
  type McpConnection,
  type McpSettings,
  type McpToolInfo,
  connectMcp,
  protocolError,
} from "./mcp-connection.js";
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
  /** The tools offered to the model, by the name the model calls them. */
  readonly tools: ReadonlyMap<string, McpTool>;
  /** Whether a call of `name` waits for the user's approval first. */
  needsApproval(name: string): boolean;
  server(label: string): McpServerSpec | undefined;
  call(server: McpServerSpec, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult>;
  close(): Promise<void>;
}

/**
 * Lists each server's tools (or reuses the context's listing), calling `onListing` for each in
 * order; tools named like one already offered (`taken`) are left out, with a warning.
 */
export async function openToolbox(
  servers: readonly McpServerSpec[],
  settings: McpSettings,
  context: readonly StoredEvent[],
  taken: ReadonlySet<string>,
  signal: AbortSignal,
  onListing: (listing: McpListing) => Promise<void>,
): Promise<McpToolbox> {
  const connections = new Map<string, Promise<McpConnection>>();
  const connect = (server: McpServerSpec) => {
    let connection = connections.get(server.serverLabel);
    if (!connection) {
      connection = connectMcp(server, settings, signal);
      connections.set(server.serverLabel, connection);
      connection.catch(() => connections.delete(server.serverLabel));
    }
    return connection;
  };
  const tools = new Map<string, McpTool>();
  for (const server of servers) {
    const listing = await listingOf(server, context, connect, signal);
    await onListing(listing);
    for (const info of listing.tools) {
      if (taken.has(info.name) || tools.has(info.name)) {
        logger.warn(`MCP server ${server.serverLabel}: tool ${info.name} is named like another tool; not offered`);
        continue;
      }
      tools.set(info.name, { server, info });
    }
  }
  return {
    tools,
    needsApproval: (name) => {
      const tool = tools.get(name);
      return tool ? needsApproval(tool.server.requireApproval, name) : false;
    },
    server: (label) => servers.find((server) => server.serverLabel === label),
    async call(server, name, args, callSignal) {
      let connection: McpConnection;
      try {
        connection = await connect(server);
      } catch (error) {
        if (callSignal.aborted) throw error;
        const failure = protocolError(error);
        return { text: `could not reach the MCP server ${server.serverLabel}: ${failure.message}`, error: failure };
      }
      return connection.callTool(name, args, callSignal);
    },
    async close() {
      const open = await Promise.allSettled(connections.values());
      await Promise.all(open.map((result) => (result.status === "fulfilled" ? result.value.close() : undefined)));
    },
  };
}

async function listingOf(
  server: McpServerSpec,
  context: readonly StoredEvent[],
  connect: (server: McpServerSpec) => Promise<McpConnection>,
  signal: AbortSignal,
): Promise<McpListing> {
  const earlier = earlierListing(server.serverLabel, context);
  if (earlier) return { server, tools: filtered(server, earlier), error: null, fresh: false };
  try {
    const connection = await connect(server);
    return { server, tools: filtered(server, await connection.listTools(signal)), error: null, fresh: true };
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
