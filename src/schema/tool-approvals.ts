// MCP tools in GraphQL: the servers a generated turn may call (McpToolInput on generateResponse),
// the approval requests a turn is waiting on (Response.toolApprovals), and the answer
// (approveToolCall), which continues the turn with the same servers, as an
// `mcp_approval_response` does in /v1/responses (docs/mcp.md).
import { storedTurns } from "../generation/turn-sink.js";
import { ModelNotConfiguredError } from "../generation/providers.js";
import { ValidationError } from "../errors.js";
import { approvalResponseEvent } from "../mcp/mcp-events.js";
import { McpRequestError, type McpServerSpec, readMcpTool, storedServers } from "../mcp/mcp-request.js";
import type { AllowedServers } from "../mcp/allowed-servers.js";
import { pendingApproval, type ToolApproval, toolApprovalsOf } from "../services/tool-approvals.js";
import { builder } from "./builder.js";
import { INPUT_LIMITS, inputLimit } from "./input-limits.js";
import { writeErrors } from "./errors.js";

const ToolApprovalStatus = builder.enumType("ToolApprovalStatus", {
  values: ["PENDING", "APPROVED", "DENIED"] as const,
});

const McpApprovalMode = builder.enumType("McpApprovalMode", {
  description: "Which of a server's tools wait for the user's approval before they run.",
  values: {
    ALWAYS: { description: "Every tool." },
    NEVER: { description: "No tool." },
  },
});

export const ToolApprovalRequest = builder.objectRef<ToolApproval>("ToolApprovalRequest").implement({
  description: "An MCP tool call the model asked for that waits for (or got) the user's approval.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The approval request's id (mcpr_…), as mcp_approval_request items name it." }),
    serverLabel: t.exposeString("serverLabel"),
    toolName: t.exposeString("toolName"),
    args: t.expose("args", { type: "JSON" }),
    status: t.expose("status", { type: ToolApprovalStatus }),
    answeredBy: t.exposeID("answeredBy", { nullable: true, description: "The response that answered it." }),
  }),
});

builder.prismaObjectField("Response", "toolApprovals", (t) =>
  t.field({
    type: [ToolApprovalRequest],
    description: "The MCP tool calls this response asked the user to approve, with their answers.",
    select: { id: true },
    resolve: (response, _args, ctx) => toolApprovalsOf(ctx.store, response.id),
  }),
);

export const McpToolInput = builder.inputType("McpToolInput", {
  description: "An MCP server the model may call within the turn (OpenAI's `mcp` tool; docs/mcp.md).",
  fields: (t) => ({
    serverLabel: t.string({ required: true }),
    serverUrl: t.string({ required: true, description: "Must be allowed by MCP_ALLOWED_SERVERS." }),
    serverDescription: t.string(),
    headers: t.field({ type: "JSONObject", description: "Sent to the server (authorization); never stored." }),
    allowedTools: t.stringList({ description: "Only these tools are offered (all when absent)." }),
    requireApproval: t.field({
      type: McpApprovalMode,
      description: "ALWAYS when absent and no tool is named in the lists below.",
    }),
    alwaysRequireApproval: t.stringList({ description: "These tools ask; with either list, unnamed tools ask too." }),
    neverRequireApproval: t.stringList({ description: "These tools run without asking." }),
  }),
});

type McpToolShape = typeof McpToolInput.$inferInput;

/** GraphQL's McpToolInput as the Responses API's `mcp` tool, checked the same way. */
export function mcpServersOf(tools: McpToolShape[] | null | undefined, allowed: AllowedServers): McpServerSpec[] {
  return (tools ?? []).map((tool, index) => {
    const always = tool.alwaysRequireApproval ?? [];
    const never = tool.neverRequireApproval ?? [];
    const raw = {
      type: "mcp",
      server_label: tool.serverLabel,
      server_url: tool.serverUrl,
      server_description: tool.serverDescription,
      headers: tool.headers,
      allowed_tools: tool.allowedTools,
      require_approval:
        always.length || never.length
          ? { always: { tool_names: always }, never: { tool_names: never } }
          : (tool.requireApproval?.toLowerCase() ?? "always"),
    };
    try {
      return readMcpTool(raw, `mcpTools[${index}]`, allowed);
    } catch (error) {
      if (error instanceof McpRequestError) throw ValidationError.at(["input", "mcpTools", index], error.message);
      throw error;
    }
  });
}

const ApproveToolCallInput = builder.inputType("ApproveToolCallInput", {
  fields: (t) => ({
    responseId: t.id({ required: true, description: "The response that asked." }),
    approvalRequestId: t.id({ required: true }),
    approve: t.boolean({ required: true }),
    reason: t.string(),
    model: t.string({
      description: "The model that continues (the asking response's when absent).",
      ...inputLimit(INPUT_LIMITS.name),
    }),
    headers: t.field({
      type: "JSONObject",
      description: "Headers for the servers, by server label (they are not stored with the turn).",
    }),
  }),
});

builder.mutationField("approveToolCall", (t) =>
  t.prismaField({
    type: "Response",
    errors: { types: [...writeErrors, ModelNotConfiguredError] },
    description:
      "Approve or deny an MCP tool call a response asked about: a new response continues it — running the call, or telling the model it was denied — and the model answers.",
    args: { input: t.arg({ type: ApproveToolCallInput, required: true }) },
    tenant: { chainedTo: ["input.responseId"] },
    resolve: async (query, _root, { input }, ctx) => {
      const responseId = String(input.responseId);
      const approval = await pendingApproval(ctx.store, responseId, String(input.approvalRequestId));
      const asking = await ctx.store.prisma.response.findUniqueOrThrow({ where: { id: responseId } });
      const answer = { approvalRequestId: approval.id, approve: input.approve, reason: input.reason ?? null };
      let servers: McpServerSpec[];
      try {
        const headers = (input.headers ?? {}) as Record<string, Record<string, string>>;
        servers = storedServers(asking.metadata, ctx.generator.mcp.allowed, headers);
      } catch (error) {
        if (error instanceof McpRequestError) throw ValidationError.at(["input", "responseId"], error.message);
        throw error;
      }
      const started = await ctx.generator.start(
        {
          tenantId: ctx.scope.tenantId,
          previousResponseId: responseId,
          model: input.model ?? asking.model ?? "",
          input: [approvalResponseEvent(answer, approval.toolName)],
          mcp: { servers, approvals: [answer] },
        },
        storedTurns(ctx),
      );
      return ctx.store.prisma.response.findUniqueOrThrow({ ...query, where: { id: started.responseId } });
    },
  }),
);
