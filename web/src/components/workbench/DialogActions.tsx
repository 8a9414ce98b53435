// A dialog's actions and facts: rename, fork the branch on screen, delete, export; its metadata.
import { useState } from "react";
import { useClient } from "urql";
import { DeleteDialogDocument, UpdateDialogDocument } from "../../../../src/client/index.js";
import { DIALOG_DELETED } from "../../hooks/use-dialog-pages.js";
import { dialogPath, navigate } from "../../hooks/use-route.js";
import { ForkDialogDocument } from "../../lib/operations.js";
import { prettyJson } from "../../lib/format.js";
import { ExportMenu } from "./ExportMenu.js";

interface Props {
  dialogId: string;
  title: string | null;
  metadata: Record<string, unknown> | null;
  /** The response whose branch is on screen (null: the dialog has none yet). */
  tipId: string | null;
}

export function DialogActions({ dialogId, title, metadata, tipId }: Props) {
  const client = useClient();
  const [renaming, setRenaming] = useState(false);
  const [draft, setDraft] = useState(title ?? "");
  const [problem, setProblem] = useState<string | null>(null);

  const rename = async () => {
    const result = await client
      .mutation(UpdateDialogDocument, { input: { id: dialogId, title: draft.trim() || null } })
      .toPromise();
    const answer = result.data?.updateDialog;
    if (answer?.__typename !== "Dialog")
      return setProblem(result.error?.message ?? (answer && "message" in answer ? answer.message : "rename failed"));
    setRenaming(false);
  };
  const fork = async () => {
    if (!tipId) return;
    const result = await client.mutation(ForkDialogDocument, { input: { responseId: tipId } }).toPromise();
    const answer = result.data?.forkDialog;
    if (answer?.__typename !== "Dialog")
      return setProblem(result.error?.message ?? (answer && "message" in answer ? answer.message : "fork failed"));
    navigate(dialogPath(answer.id));
  };
  const remove = async () => {
    if (!window.confirm("Delete this dialog and all its branches?")) return;
    const result = await client.mutation(DeleteDialogDocument, { input: { id: dialogId } }).toPromise();
    if (result.data?.deleteDialog.__typename !== "DeleteDialogPayload")
      return setProblem(result.error?.message ?? "delete failed");
    window.dispatchEvent(new CustomEvent(DIALOG_DELETED, { detail: dialogId }));
    navigate("/");
  };

  return (
    <div className="dialog-actions" data-testid="dialog-actions">
      {renaming ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void rename();
          }}
        >
          <input
            aria-label="Title"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            autoFocus
            data-testid="rename-input"
          />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => setRenaming(true)} data-testid="rename">
          Rename
        </button>
      )}
      <button
        type="button"
        onClick={() => void fork()}
        disabled={!tipId}
        title="A new dialog holding this branch's history"
        data-testid="fork"
      >
        Fork branch
      </button>
      <button type="button" className="danger" onClick={() => void remove()} data-testid="delete">
        Delete
      </button>
      <ExportMenu dialogId={dialogId} responseId={tipId} />
      {problem && <span className="tag tag-error">{problem}</span>}
      {metadata && Object.keys(metadata).length > 0 && (
        <details className="dialog-metadata" data-testid="dialog-metadata">
          <summary>metadata</summary>
          <pre className="json">{prettyJson(metadata)}</pre>
        </details>
      )}
    </div>
  );
}
