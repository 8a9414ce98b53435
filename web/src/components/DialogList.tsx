// The sidebar: every dialog, newest first, kept fresh by useDialogs.
import { useDialogs } from "../../../src/client/react/index.js";
import { DialogListItem } from "./DialogListItem.js";

export function DialogList({ selectedId }: { selectedId: string | null }) {
  const { dialogs, fetching, error } = useDialogs({ first: 100 });
  if (error && !dialogs.length) return <p className="muted pad">Cannot load dialogs: {error.message}</p>;
  if (!dialogs.length) return <p className="muted pad">{fetching ? "Loading dialogs…" : "No dialogs yet."}</p>;
  return (
    <nav aria-label="Dialogs">
      <ul className="dialog-list" data-testid="dialog-list">
        {dialogs.map((dialog) => (
          <DialogListItem key={dialog.id} dialog={dialog} selected={dialog.id === selectedId} />
        ))}
      </ul>
    </nav>
  );
}
