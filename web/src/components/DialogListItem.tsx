import type { DialogSummaryFragment } from "../../../src/client/index.js";
import { dialogPath } from "../hooks/use-route.js";
import { formatAge, plural } from "../lib/format.js";
import { Link } from "./Link.js";
import { StatusBadge } from "./StatusBadge.js";

export function DialogListItem({ dialog, selected }: { dialog: DialogSummaryFragment; selected: boolean }) {
  return (
    <li className={selected ? "dialog-item selected" : "dialog-item"} data-dialog-id={dialog.id}>
      <Link href={dialogPath(dialog.id)} aria-current={selected ? "page" : undefined}>
        <span className="dialog-title">{dialog.title || "Untitled dialog"}</span>
        <span className="dialog-meta">
          <span title={dialog.updatedAt}>{formatAge(dialog.updatedAt)}</span>
          <span>{plural(dialog.lastSeq, "event")}</span>
          {dialog.head && <StatusBadge status={dialog.head.status} />}
        </span>
        <code className="dialog-id">{dialog.id}</code>
      </Link>
    </li>
  );
}
