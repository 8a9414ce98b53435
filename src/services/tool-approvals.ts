// MCP tool calls waiting for the user's approval (src/mcp/mcp-events.ts says how they are
// stored): a response's approval requests with whether each is still pending, and the request an
// answer names.
import { NotFoundError, ValidationError } from "../errors.js";
import { mcpMetadataOf } from "../mcp/mcp-events.js";
import type { Store } from "../store/store.js";

export type ToolApprovalStatus = "PENDING" | "APPROVED" | "DENIED";

export interface ToolApproval {
  /** The approval request's id (`mcpr_…`), as the Responses API names it. */
  id: string;
  responseId: string;
  serverLabel: string;
  toolName: string;
  args: unknown;
  status: ToolApprovalStatus;
  /** The response whose input answered it; null while pending. */
  answeredBy: string | null;
}

/** The approval requests in a response's output, each with its answer (the first one given) if any. */
export async function toolApprovalsOf({ prisma }: Store, responseId: string): Promise<ToolApproval[]> {
  const requests = await prisma.event.findMany({
    where: { responseId, type: "TOOL_CALL", callId: { startsWith: "mcpr_" } },
    orderBy: { seq: "asc" },
  });
  if (!requests.length) return [];
  const answers = await prisma.event.findMany({
    where: {
      dialogId: requests[0]!.dialogId,
      type: "TOOL_RESULT",
      callId: { in: requests.map((event) => event.callId!) },
    },
    orderBy: { seq: "asc" },
  });
  return requests.flatMap((event) => {
    const mcp = mcpMetadataOf(event.metadata);
    if (mcp?.type !== "mcp_approval_request") return [];
    const answer = answers.find((candidate) => candidate.callId === event.callId);
    return [
      {
        id: event.callId!,
        responseId,
        serverLabel: mcp.server_label ?? "",
        toolName: event.toolName ?? "",
        args: event.args,
        status: !answer ? "PENDING" : answer.isError ? "DENIED" : "APPROVED",
        answeredBy: answer?.responseId ?? null,
      },
    ];
  });
}

/** The pending approval request `approvalRequestId` of `responseId`, or a typed error. */
export async function pendingApproval(store: Store, responseId: string, approvalRequestId: string) {
  const approval = (await toolApprovalsOf(store, responseId)).find((candidate) => candidate.id === approvalRequestId);
  if (!approval) {
    throw new NotFoundError(`Approval request ${approvalRequestId} not found in response ${responseId}`);
  }
  if (approval.status !== "PENDING") {
    throw ValidationError.at(
      ["input", "approvalRequestId"],
      `already ${approval.status.toLowerCase()} (by response ${approval.answeredBy})`,
    );
  }
  return approval;
}
