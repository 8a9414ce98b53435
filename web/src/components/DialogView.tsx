// One dialog: its header and its history as a timeline, live.
import { useEffect, useMemo } from "react";
import { useQuery } from "urql";
import { DialogDocument } from "../../../src/client/index.js";
import { useDialogHistory } from "../../../src/client/react/index.js";
import { useBranchTree } from "../hooks/use-branch-tree.js";
import { DIALOG_CHANGED } from "../hooks/use-dialog-pages.js";
import { useScrollToEvent } from "../hooks/use-scroll-to-event.js";
import { DialogDetailsDocument } from "../lib/operations.js";
import { Composer } from "./Composer.js";
import { DialogHeader } from "./DialogHeader.js";
import { NotFound } from "./NotFound.js";
import { Timeline } from "./Timeline.js";
import { UsageTotals } from "./usage/UsageTotals.js";
import { BranchTree } from "./workbench/BranchTree.js";
import { DialogActions } from "./workbench/DialogActions.js";

interface Props {
  dialogId: string;
  responseId: string | null;
  /** Open the dialog scrolled to this event. */
  eventSeq?: number | null;
}

export function DialogView({ dialogId, responseId, eventSeq = null }: Props) {
  const history = useDialogHistory(dialogId, responseId);
  // Re-read when the history moves, so the header's head and the branch tree stay current.
  const version = `${history.lastSeq}:${history.responseId}`;
  // urql runs the query again when its context changes identity: a new version is a new read.
  const context = useMemo(() => ({ requestPolicy: "network-only" as const, version }), [version]);
  const [{ data }] = useQuery({ query: DialogDocument, variables: { id: dialogId }, context });
  const tree = useBranchTree(dialogId, version);
  // The sidebar's row for this dialog (counts, status) follows at once instead of at its next poll.
  useEffect(() => {
    if (history.status !== "loading") window.dispatchEvent(new Event(DIALOG_CHANGED));
  }, [version, history.status]);
  const [{ data: details }] = useQuery({ query: DialogDetailsDocument, variables: { id: dialogId }, context });
  useScrollToEvent(history.status === "loading" ? null : eventSeq, history.events.length);

  if (history.status === "not-found") {
    return <NotFound message={history.error?.message ?? `Dialog ${dialogId} not found`} />;
  }
  return (
    <section className="dialog-view" data-testid="dialog-view" data-watch-status={history.status}>
      <DialogHeader
        dialog={data?.dialog ?? null}
        history={history}
        pinned={Boolean(responseId)}
        preview={details?.dialog?.preview}
      />
      <UsageTotals dialogId={dialogId} responseId={history.responseId} version={version} />
      {details?.dialog && (
        <>
          <DialogActions
            dialogId={dialogId}
            title={details.dialog.title ?? null}
            metadata={details.dialog.metadata}
            tipId={history.responseId ?? details.dialog.head?.id ?? null}
          />
          <BranchTree
            dialogId={dialogId}
            headId={details.dialog.head?.id ?? null}
            leaves={details.dialog.branches}
            currentTip={responseId ? history.responseId : null}
          />
        </>
      )}
      {history.status === "loading" ? (
        <p className="muted pad">Loading history…</p>
      ) : (
        <>
          <Timeline dialogId={dialogId} history={history} tree={tree} headId={data?.dialog?.head?.id ?? null} />
          <Composer dialogId={dialogId} previousResponseId={responseId ? history.responseId : null} />
        </>
      )}
    </section>
  );
}
