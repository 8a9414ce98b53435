// A tool call: the tool's name, its call id and its JSON arguments; an MCP call waiting for
// approval shows Approve and Deny.
import type { HistoryEvent } from "../../../../src/client/index.js";
import { prettyJson } from "../../lib/format.js";
import { EventFrame } from "./EventFrame.js";
import { isApprovalRequest, ToolApproval } from "./ToolApproval.js";

type ToolCall = Extract<HistoryEvent, { __typename: "ToolCallEvent" }>;

export function ToolCallEvent({ event }: { event: ToolCall }) {
  const label = (
    <>
      Tool call <code className="tool-name">{event.toolName}</code>
      <code className="call-id">{event.callId}</code>
    </>
  );
  return (
    <EventFrame event={event} kind="tool-call" label={label}>
      <pre className="json">{prettyJson(event.args)}</pre>
      {isApprovalRequest(event.metadata) && event.callId && (
        <ToolApproval responseId={event.response.id} approvalRequestId={event.callId} />
      )}
    </EventFrame>
  );
}
