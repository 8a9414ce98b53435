// The MCP parts of a Responses request, in OpenAI's shapes: `{"type": "mcp", server_label,
// server_url, headers, allowed_tools, require_approval}` tools and `mcp_approval_response` input
// items. They are taken out of the body before the rest of it is read (src/responses-api/
// create-request.ts calls `extractMcp` once), so the body's own schema stays about the rest.
// Every server_url is checked against MCP_ALLOWED_SERVERS here, before anything runs.
import { z } from "zod";
import { type AllowedServers, refusalOf } from "./allowed-servers.js";

const toolNames = z.array(z.string().min(1)).max(1000);

// Strict: a field of OpenAI's `mcp` tool this server does not act on (connector_id,
// defer_loading, tunnel_id, allowed_callers) is refused by name rather than ignored.
const mcpTool = z.strictObject({
  type: z.literal("mcp"),
  server_label: z
    .string({ error: "server_label is required" })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, _ and -, at most 64"),
  server_url: z.string({ error: "server_url is required (connectors are not supported)" }).url(),
  server_description: z.string().nullish(),
  headers: z.record(z.string(), z.string()).nullish(),
  /** An OAuth access token: sent as `Authorization: Bearer …`, like headers never stored. */
  authorization: z.string().min(1).nullish(),
  allowed_tools: z
    .union([toolNames, z.strictObject({ tool_names: toolNames.nullish(), read_only: z.boolean().nullish() })])
    .nullish(),
  require_approval: z
    .union([
      z.enum(["always", "never"]),
      z.strictObject({
        always: z.strictObject({ tool_names: toolNames.nullish() }).nullish(),
        never: z.strictObject({ tool_names: toolNames.nullish() }).nullish(),
      }),
    ])
    .nullish(),
});

const approvalResponse = z.looseObject({
  type: z.literal("mcp_approval_response"),
  id: z.string().nullish(),
  approval_request_id: z.string().min(1),
  approve: z.boolean(),
  reason: z.string().max(4096).nullish(),
});

/** Which of a server's tools need the user's approval before they run. */
export type ApprovalPolicy = "always" | "never" | { always: string[]; never: string[] };

export interface McpServerSpec {
  serverLabel: string;
  serverUrl: string;
  serverDescription: string | null;
  /** Sent with every request to this server; never stored, logged or returned. */
  headers: Record<string, string>;
  /** Only these tools are listed and offered; null: all of them. */
  allowedTools: string[] | null;
  /** Only tools the server marks read-only (annotations.readOnlyHint) are offered. */
  readOnly: boolean;
  requireApproval: ApprovalPolicy;
}

export interface ApprovalAnswer {
  approvalRequestId: string;
  approve: boolean;
  reason: string | null;
}

export interface McpRequest {
  servers: McpServerSpec[];
  approvals: ApprovalAnswer[];
}

/**
 * Where a turn's MCP servers are kept in its Response's metadata (as echoed: no headers), so an
 * approval given later through GraphQL (approveToolCall) continues with the same servers.
 */
export const MCP_SERVERS_KEY = "dialogql:mcp_servers";

/** The servers a stored turn used, read back from its metadata, with `headers` by server label. */
export function storedServers(
  metadata: unknown,
  allowed: AllowedServers,
  headers: Record<string, Record<string, string>> = {},
): McpServerSpec[] {
  const stored = (metadata as Record<string, unknown> | null)?.[MCP_SERVERS_KEY];
  if (!Array.isArray(stored)) return [];
  return stored.map((tool, index) => {
    const spec = readMcpTool(tool, `metadata.${MCP_SERVERS_KEY}[${index}]`, allowed);
    return { ...spec, headers: headers[spec.serverLabel] ?? {} };
  });
}

/** A problem with an MCP part of the request: its message and the parameter it names. */
export class McpRequestError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

export const needsApproval = (policy: ApprovalPolicy, toolName: string) =>
  typeof policy === "string"
    ? policy === "always"
    : policy.always.includes(toolName) || !policy.never.includes(toolName);

/** The tool as a Response object echoes it: everything but the headers. */
export function echoedMcpTool(spec: McpServerSpec) {
  return {
    type: "mcp" as const,
    server_label: spec.serverLabel,
    server_url: spec.serverUrl,
    server_description: spec.serverDescription,
    allowed_tools: spec.readOnly ? { tool_names: spec.allowedTools, read_only: true } : spec.allowedTools,
    headers: null,
    require_approval:
      typeof spec.requireApproval === "string"
        ? spec.requireApproval
        : {
            always: { tool_names: spec.requireApproval.always },
            never: { tool_names: spec.requireApproval.never },
          },
  };
}

/** A tool as echoed (or given) back to `readMcpTool`: the stored form of a server, without headers. */
export function readMcpTool(raw: unknown, param: string, allowed: AllowedServers): McpServerSpec {
  const parsed = mcpTool.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.map(String).join(".");
    throw new McpRequestError(`Invalid '${param}${key ? `.${key}` : ""}': ${issue.message}`, param);
  }
  const tool = parsed.data;
  const refusal = refusalOf(tool.server_url, allowed);
  if (refusal) throw new McpRequestError(`Invalid '${param}.server_url': ${refusal}`, `${param}.server_url`);
  const policy = tool.require_approval ?? "always";
  return {
    serverLabel: tool.server_label,
    serverUrl: tool.server_url,
    serverDescription: tool.server_description ?? null,
    headers: {
      ...tool.headers,
      ...(tool.authorization && { authorization: `Bearer ${tool.authorization}` }),
    },
    allowedTools: Array.isArray(tool.allowed_tools) ? tool.allowed_tools : (tool.allowed_tools?.tool_names ?? null),
    readOnly: !Array.isArray(tool.allowed_tools) && tool.allowed_tools?.read_only === true,
    requireApproval:
      typeof policy === "string"
        ? policy
        : { always: policy.always?.tool_names ?? [], never: policy.never?.tool_names ?? [] },
  };
}

/**
 * Takes the `mcp` tools out of `tools` and the `mcp_approval_response` items out of `input`,
 * checked; the body comes back without them. Other tools and items are left for the body's schema.
 */
export function extractMcp(raw: unknown, allowed: AllowedServers): { body: unknown; mcp: McpRequest } {
  const mcp: McpRequest = { servers: [], approvals: [] };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { body: raw, mcp };
  const body = { ...(raw as Record<string, unknown>) };
  if (Array.isArray(body.tools)) {
    body.tools = body.tools.filter((tool, index) => {
      if ((tool as { type?: unknown })?.type !== "mcp") return true;
      mcp.servers.push(readMcpTool(tool, `tools[${index}]`, allowed));
      return false;
    });
    const labels = mcp.servers.map((server) => server.serverLabel);
    const twice = labels.find((label, index) => labels.indexOf(label) !== index);
    if (twice) throw new McpRequestError(`Invalid 'tools': server_label "${twice}" is given twice`, "tools");
  }
  if (Array.isArray(body.input)) {
    body.input = body.input.filter((item, index) => {
      if ((item as { type?: unknown })?.type !== "mcp_approval_response") return true;
      const parsed = approvalResponse.safeParse(item);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const param = `input[${index}]${issue.path.length ? `.${issue.path.join(".")}` : ""}`;
        throw new McpRequestError(`Invalid '${param}': ${issue.message}`, param);
      }
      mcp.approvals.push({
        approvalRequestId: parsed.data.approval_request_id,
        approve: parsed.data.approve,
        reason: parsed.data.reason ?? null,
      });
      return false;
    });
  }
  return { body, mcp };
}
