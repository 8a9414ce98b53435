// One dialog as a chat: its header, its history as a timeline (live, following the answer as it is
// typed), and the composer under it.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "urql";
import { DialogDocument } from "../../../src/client/index.js";
import { useDialogHistory } from "../../../src/client/react/index.js";
import { useAutoTitle } from "../hooks/use-auto-title.js";
import { useBranchTree } from "../hooks/use-branch-tree.js";
import { DIALOG_CHANGED } from "../hooks/use-dialog-pages.js";
import { useFollowAnswer } from "../hooks/use-follow-answer.js";
import { dialogPath, navigate } from "../hooks/use-route.js";
import { useScrollToEvent } from "../hooks/use-scroll-to-event.js";
import { DialogDetailsDocument } from "../lib/operations.js";
import { dialogPanels } from "../slots.js";
import { Composer } from "./Composer.js";
import { DialogHeader } from "./DialogHeader.js";
import { NotFound } from "./NotFound.js";
import { Timeline, WINDOW } from "./Timeline.js";
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
  // Only the window's events are read before the first draw; the rest when asked for. Opened at an
  // event, the whole context is read, so the window can reach back to it.
  const history = useDialogHistory(dialogId, responseId, { tail: eventSeq == null ? WINDOW : null });
  const [titled, setTitled] = useState(0);
  // Re-read when the history moves, so the header's head and the branch tree stay current.
  const version = `${history.lastSeq}:${history.responseId}:${titled}`;
  // urql runs the query again when its context changes identity: a new version is a new read.
  const context = useMemo(() => ({ requestPolicy: "network-only" as const, version }), [version]);
  const [{ data }] = useQuery({ query: DialogDocument, variables: { id: dialogId }, context });
  const loaded = history.status !== "loading";
  // The branch tree (many pages in a long dialog) is read after the history is drawn, not before.
  const tree = useBranchTree(dialogId, version, loaded);
  // The sidebar's row for this dialog (counts, status) follows at once.
  useEffect(() => {
    if (history.status !== "loading") window.dispatchEvent(new Event(DIALOG_CHANGED));
  }, [version, history.status]);
  const [{ data: details }] = useQuery({ query: DialogDetailsDocument, variables: { id: dialogId }, context });
  useScrollToEvent(loaded ? eventSeq : null, history.events.length);
  useAutoTitle(
    dialogId,
    history,
    useCallback(() => setTitled((n) => n + 1), []),
  );

  const anchor = useRef<HTMLElement>(null);
  const typed = Object.values(history.inFlight).reduce((sum, text) => sum + (text?.text.length ?? 0), 0);
  useFollowAnswer(anchor, `${history.events.length}:${typed}`, loaded, eventSeq == null);

  if (history.status === "not-found") {
    return <NotFound message={history.error?.message ?? `Dialog ${dialogId} not found`} />;
  }
  const tip = history.responseId ? (history.responses[history.responseId] ?? null) : null;
  return (
    <section ref={anchor} className="dialog-view" data-testid="dialog-view" data-watch-status={history.status}>
      <DialogHeader
        dialog={data?.dialog ?? null}
        history={history}
        pinned={Boolean(responseId)}
        preview={details?.dialog?.preview}
        forkedFrom={details?.dialog?.forkedFrom ?? null}
      />
      <UsageTotals dialogId={dialogId} responseId={history.responseId} version={version} />
      {dialogPanels.map((Panel, i) => (
        <Panel key={i} dialogId={dialogId} />
      ))}
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
      {!loaded ? (
        <p className="muted pad">Loading history…</p>
      ) : (
        <>
          <Timeline
            key={history.responseId ?? ""}
            dialogId={dialogId}
            history={history}
            tree={tree}
            headId={data?.dialog?.head?.id ?? null}
            openAtSeq={eventSeq}
          />
          <Composer
            dialogId={dialogId}
            previousResponseId={responseId ? history.responseId : null}
            tip={tip}
            // The new turn is the dialog's head now: follow it (a pinned branch would not show it).
            onSent={() => navigate(dialogPath(dialogId))}
          />
        </>
      )}
    </section>
  );
}
