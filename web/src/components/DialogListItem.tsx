import type { DialogRowData } from "../hooks/use-dialog-pages.js";
import { dialogPath } from "../hooks/use-route.js";
import { formatAge, plural } from "../lib/format.js";
import { dialogName } from "../lib/plain-text.js";
import { Link } from "./Link.js";
import { StatusBadge } from "./StatusBadge.js";

// Untitled dialogs show the start of their first message instead of a bare "Untitled".
export function DialogListItem({ dialog, selected }: { dialog: DialogRowData; selected: boolean }) {
  return (
    <li className={selected ? "dialog-item selected" : "dialog-item"} data-dialog-id={dialog.id}>
      <Link href={dialogPath(dialog.id)} aria-current={selected ? "page" : undefined}>
        <span className={dialog.title ? "dialog-title" : "dialog-title untitled"}>
          {dialogName(dialog.title, dialog.preview, "Untitled dialog")}
        </span>
        <span className="dialog-meta">
          <span title={lastActive(dialog)}>{formatAge(lastActive(dialog))}</span>
          {/* The head branch's events: the same count the dialog's header shows. */}
          <span data-testid="dialog-event-count">{plural(dialog.eventCount, "event")}</span>
          {dialog.head?.model && <span className="model">{dialog.head.model}</span>}
          {dialog.head && <StatusBadge status={dialog.head.status} />}
        </span>
        <code className="dialog-id">{dialog.id}</code>
      </Link>
    </li>
  );
}

/**
 * When the dialog last had an answer: its head's finish (or start), not `updatedAt`, which is the
 * retention clock — an imported 2023 chat was "updated" at its import, yet was last active in 2023.
 */
function lastActive(dialog: DialogRowData) {
  return dialog.head?.completedAt ?? dialog.head?.createdAt ?? dialog.updatedAt;
}
