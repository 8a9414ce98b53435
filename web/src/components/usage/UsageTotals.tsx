// In a dialog's header: what the dialog and the branch shown cost (Dialog.usage and
// Response.contextUsage), read again whenever the history moves.
import { useMemo } from "react";
import { useQuery } from "urql";
import { DialogUsageDocument } from "../../lib/usage-operations.js";
import { formatCost, formatTokens } from "./usage-format.js";

interface Props {
  dialogId: string;
  /** The tip of the branch shown (null while there is none). */
  responseId: string | null;
  /** Changes whenever the history does. */
  version: string;
}

interface Totals {
  totalTokens: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  cost: number;
}

const detail = (t: Totals) =>
  `${formatTokens(t.inputTokens)} in (${formatTokens(t.cachedTokens)} cached) · ${formatTokens(t.outputTokens)} out (${formatTokens(t.reasoningTokens)} reasoning)`;

export function UsageTotals({ dialogId, responseId, version }: Props) {
  const context = useMemo(() => ({ requestPolicy: "network-only" as const, version }), [version]);
  const [{ data }] = useQuery({
    query: DialogUsageDocument,
    variables: { dialogId, responseId: responseId ?? "", withBranch: Boolean(responseId) },
    context,
  });
  const dialog = data?.dialog?.usage;
  if (!dialog) return null;
  const branch = data?.response?.contextUsage;
  return (
    <p className="usage-totals" data-testid="usage-totals">
      <span data-testid="dialog-usage" title={detail(dialog)}>
        dialog: {formatTokens(dialog.totalTokens)} tokens · {formatCost(dialog.cost)}
      </span>
      {branch && (
        <span data-testid="branch-usage" title={detail(branch)}>
          this branch: {formatTokens(branch.totalTokens)} tokens · {formatCost(branch.cost)}
        </span>
      )}
      <a href="/usage">usage</a>
    </p>
  );
}
