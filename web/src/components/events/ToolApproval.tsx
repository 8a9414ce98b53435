// An MCP tool call waiting for the user's approval (an approval request ToolCallEvent, see
// docs/mcp.md): Approve and Deny answer it with approveToolCall, which continues the turn in a new
// response; the viewer then follows the dialog's head as usual. Once answered, it says how.
import { useMutation, useQuery } from "urql";
import { graphql } from "../../../../src/client/generated/index.js";

const ToolApprovalsDocument = graphql(`
  query ToolApprovals($responseId: ID!) {
    response(id: $responseId) {
      id
      toolApprovals {
        id
        status
      }
    }
  }
`);

const ApproveToolCallDocument = graphql(`
  mutation ApproveToolCall($input: ApproveToolCallInput!) {
    approveToolCall(input: $input) {
      __typename
      ... on Response {
        id
      }
      ... on Error {
        message
      }
    }
  }
`);

/** Whether an event's metadata marks it as an MCP approval request. */
export const isApprovalRequest = (metadata: Record<string, unknown>) =>
  (metadata.mcp as { type?: unknown } | undefined)?.type === "mcp_approval_request";

export function ToolApproval({ responseId, approvalRequestId }: { responseId: string; approvalRequestId: string }) {
  const [{ data }, refetch] = useQuery({ query: ToolApprovalsDocument, variables: { responseId } });
  const [answer, approve] = useMutation(ApproveToolCallDocument);
  const status = data?.response?.toolApprovals.find((approval) => approval.id === approvalRequestId)?.status;
  if (!status) return null;
  if (status !== "PENDING") {
    return (
      <p className="tool-approval" data-testid="tool-approval">
        {status === "APPROVED" ? "Approved" : "Denied"}
      </p>
    );
  }
  const decide = async (approved: boolean) => {
    await approve({ input: { responseId, approvalRequestId, approve: approved } });
    refetch({ requestPolicy: "network-only" });
  };
  const refused = answer.data?.approveToolCall.__typename !== "Response" && answer.data?.approveToolCall;
  return (
    <div className="tool-approval" data-testid="tool-approval">
      <span>This tool call waits for your approval.</span>
      <button type="button" onClick={() => decide(true)} disabled={answer.fetching} data-testid="approve-tool-call">
        Approve
      </button>
      <button type="button" onClick={() => decide(false)} disabled={answer.fetching} data-testid="deny-tool-call">
        Deny
      </button>
      {(answer.error || refused) && (
        <span role="alert">{answer.error?.message ?? (refused && "message" in refused ? refused.message : "")}</span>
      )}
    </div>
  );
}
