// One MCP server reached through the official SDK client: Streamable HTTP first, the older
// HTTP+SSE transport when the server does not speak it (the SDK's documented fallback). The
// request headers (authorization) go on every request and nowhere else. Redirects are followed
// only to URLs MCP_ALLOWED_SERVERS allows; every request is bounded by the call's timeout and
// abort signal, so a slow or dead server ends the call with an error instead of holding the turn.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Config } from "../config.js";
import { type AllowedServers, allowedServersFrom, refusalOf } from "./allowed-servers.js";
import type { McpServerSpec } from "./mcp-request.js";

export interface McpToolInfo {
  name: string;
  description: string | null;
  input_schema: Record<string, unknown>;
  annotations: unknown;
}

/** OpenAI's McpToolCallError shapes. */
export type McpCallError =
  | { type: "mcp_protocol_error"; code: number; message: string }
  | { type: "mcp_tool_execution_error"; content: unknown }
  | { type: "http_error"; code: number; message: string };

export interface McpCallResult {
  /** The tool's text (its error text when `error` is set): what the model is given. */
  text: string;
  error: McpCallError | null;
}

/** How servers are reached (MCP_ALLOWED_SERVERS, the timeout, the output bound). */
export interface McpConnectionSettings {
  allowed: AllowedServers;
  /** How long one request to a server (connect, list, call) may take. */
  timeoutMs: number;
  /** A tool's output beyond this many bytes is cut (it is stored as an event). */
  maxOutputBytes: number;
}

export interface McpConnection {
  listTools(signal: AbortSignal): Promise<McpToolInfo[]>;
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult>;
  close(): Promise<void>;
}

export function connectionSettingsFrom(
  config: Pick<Config, "MCP_ALLOWED_SERVERS" | "MCP_TOOL_TIMEOUT_MS" | "NODE_ENV" | "MAX_EVENT_BYTES">,
): McpConnectionSettings {
  return {
    allowed: allowedServersFrom(config.MCP_ALLOWED_SERVERS, config.NODE_ENV),
    timeoutMs: config.MCP_TOOL_TIMEOUT_MS,
    // Room for the event's other fields within MAX_EVENT_BYTES.
    maxOutputBytes: Math.max(1024, config.MAX_EVENT_BYTES - 4096),
  };
}

export async function connectMcp(spec: McpServerSpec, settings: McpConnectionSettings, signal: AbortSignal) {
  const url = new URL(spec.serverUrl);
  const fetch = allowedRedirectsOnly(settings.allowed);
  const requestInit = { headers: spec.headers };
  const options = { timeout: settings.timeoutMs, signal };
  const client = new Client({ name: "dialogql", version: "1" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit, fetch, redirectPolicy: "follow" }),
      options,
    );
  } catch (error) {
    if (signal.aborted || !isNotStreamableHttp(error)) throw error;
    await client.close().catch(() => {});
    await client.connect(new SSEClientTransport(url, { requestInit, fetch, eventSourceInit: { fetch } }), options);
  }
  return connection(client, settings);
}

function connection(client: Client, settings: McpConnectionSettings): McpConnection {
  return {
    async listTools(signal) {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools({ cursor }, { timeout: settings.timeoutMs, signal });
        for (const tool of page.tools) {
          tools.push({
            name: tool.name,
            description: tool.description ?? null,
            input_schema: tool.inputSchema as Record<string, unknown>,
            annotations: tool.annotations ?? null,
          });
        }
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    async callTool(name, args, signal) {
      try {
        const result = await client.callTool({ name, arguments: args }, undefined, {
          timeout: settings.timeoutMs,
          signal,
        });
        const text = bounded(contentText(result.content ?? result.toolResult), settings.maxOutputBytes);
        return result.isError
          ? { text, error: { type: "mcp_tool_execution_error", content: result.content } }
          : { text, error: null };
      } catch (error) {
        if (signal.aborted) throw error;
        const failure = protocolError(error);
        return { text: failure.message, error: failure };
      }
    },
    close: () => client.close().catch(() => {}),
  };
}

/** A tool's content as text: text blocks as they are, other blocks (images, resources) as JSON. */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return typeof content === "string" ? content : JSON.stringify(content ?? null);
  return content
    .map((block) => (block?.type === "text" && typeof block.text === "string" ? block.text : JSON.stringify(block)))
    .join("\n");
}

function bounded(text: string, maxBytes: number) {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const cut = Buffer.from(text)
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return `${cut}\n[output cut at ${maxBytes} bytes]`;
}

/** The SDK's errors as OpenAI's: a JSON-RPC error keeps its code; a timeout or a lost server is -32001/-32000. */
export function protocolError(error: unknown): Extract<McpCallError, { type: "mcp_protocol_error" }> {
  const code = typeof (error as { code?: unknown })?.code === "number" ? (error as { code: number }).code : -32000;
  const message = error instanceof Error ? error.message : String(error);
  return { type: "mcp_protocol_error", code, message };
}

/** Streamable HTTP was refused as such (an old server answers 4xx to its POST): try SSE. */
function isNotStreamableHttp(error: unknown) {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "number" && code >= 400 && code < 500;
}

/** fetch that follows a redirect only when its target is an allowed server. */
function allowedRedirectsOnly(allowed: AllowedServers): typeof fetch {
  return async function follow(input, init, hops = 0): Promise<Response> {
    const response = await fetch(input, { ...init, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return response;
    const target = new URL(location, response.url || String(input)).href;
    const refusal = refusalOf(target, allowed);
    if (refusal) throw new Error(`the MCP server redirected outside MCP_ALLOWED_SERVERS (${refusal})`);
    if (hops >= 5) throw new Error("the MCP server redirected too many times");
    return (follow as (i: string, n?: RequestInit, h?: number) => Promise<Response>)(target, init, hops + 1);
  } as typeof fetch;
}
