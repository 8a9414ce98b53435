// Above the timeline: the dialog's title and id, whether the page is live, what it shows.
import type { DialogQuery, HistoryState } from "../../../src/client/index.js";
import { dialogPath } from "../hooks/use-route.js";
import { formatTime, plural } from "../lib/format.js";
import { dialogName } from "../lib/plain-text.js";
import { Link } from "./Link.js";
import { LiveIndicator } from "./LiveIndicator.js";

interface Props {
  dialog: DialogQuery["dialog"] | null;
  history: HistoryState;
  pinned: boolean;
  /** Shown, in italics, for an untitled dialog: the start of its first message. */
  preview?: string | null;
  /** The response a fork was copied from (in another dialog). */
  forkedFrom?: { id: string; dialog: { id: string; title?: string | null } } | null;
}

export function DialogHeader({ dialog, history, pinned, preview, forkedFrom }: Props) {
  const branches = dialog?.branches.length ?? 0;
  return (
    <header className="dialog-header">
      <div className="dialog-header-title">
        <h1 className={dialog?.title ? undefined : "untitled"}>
          {dialogName(dialog?.title, preview, "Untitled dialog")}
        </h1>
        <LiveIndicator status={history.status} error={history.error} />
      </div>
      <p className="dialog-header-meta">
        <code>{history.dialogId}</code>
        {dialog && <span>created {formatTime(dialog.createdAt)}</span>}
        <span data-testid="event-count">{plural(history.events.length + history.earlier, "event")}</span>
        {branches > 1 && <span>{branches} branches</span>}
        {forkedFrom && (
          <span className="tag tag-fork" data-testid="forked-from">
            fork of{" "}
            <Link href={dialogPath(forkedFrom.dialog.id, forkedFrom.id)}>{forkedFrom.dialog.title || "a dialog"}</Link>
          </span>
        )}
        {pinned ? (
          <span className="pinned">
            showing the branch ending at <code>{history.responseId}</code> ·{" "}
            <Link href={dialogPath(history.dialogId)}>follow the latest</Link>
          </span>
        ) : (
          <span>following the latest response</span>
        )}
      </p>
    </header>
  );
}
