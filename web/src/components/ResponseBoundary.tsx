// Where a response begins: its status, model, token usage and time, and the branch switcher when
// other responses continue the same one.
import type { ResponseSummary } from "../../../src/client/index.js";
import { type BranchTree, siblingsOf } from "../lib/branch-tree.js";
import { formatTime, formatUsage } from "../lib/format.js";
import { readableError } from "../lib/readable-error.js";
import { BranchSwitcher } from "./BranchSwitcher.js";
import { RegenerateButton } from "./RegenerateButton.js";
import { StatusBadge } from "./StatusBadge.js";

interface Props {
  dialogId: string;
  responseId: string;
  response: ResponseSummary | undefined;
  tree: BranchTree | null;
  headId: string | null;
  /** The turn's human messages (what "Regenerate from here" sends again). */
  inputs: string[];
}

export function ResponseBoundary({ dialogId, responseId, response, tree, headId, inputs }: Props) {
  const siblings = tree ? siblingsOf(tree, responseId) : [];
  const usage = response ? formatUsage(response.usage) : null;
  return (
    <div className="response-boundary" data-testid="response-boundary" data-response-id={responseId}>
      <div className="response-line">
        <span className="turn-label">Turn {response ? response.depth + 1 : "?"}</span>
        {response && <StatusBadge status={response.status} />}
        {response?.model && <span className="model">{response.model}</span>}
        {usage && <span className="usage">{usage}</span>}
        {response && <time dateTime={response.createdAt}>{formatTime(response.createdAt)}</time>}
        <code className="response-id">{responseId}</code>
        {response && response.status !== "IN_PROGRESS" && (
          <RegenerateButton
            dialogId={dialogId}
            parentId={response.previousResponse?.id ?? null}
            inputs={inputs}
            model={response.model ?? null}
            label={response.status === "FAILED" ? "Retry" : undefined}
          />
        )}
      </div>
      {response?.error != null && (
        <p className="response-error" role="alert" data-testid="response-error">
          {readableError(response.error)}
        </p>
      )}
      {tree && siblings.length > 1 && (
        <BranchSwitcher dialogId={dialogId} currentId={responseId} siblings={siblings} tree={tree} headId={headId} />
      )}
    </div>
  );
}
