// The sidebar: the caller's dialogs, filtered, counted, and loaded a page at a time as the list is
// scrolled to its end.
import { useEffect, useMemo, useRef, useState } from "react";
import { useDebounced } from "../hooks/use-debounced.js";
import { useDialogPages } from "../hooks/use-dialog-pages.js";
import { useListKeys } from "../hooks/use-list-keys.js";
import { countText } from "../lib/counts.js";
import { DialogListItem } from "./DialogListItem.js";
import { DialogFilters, defaultControls, filterOf } from "./workbench/DialogFilters.js";

export function DialogList({ selectedId }: { selectedId: string | null }) {
  const [controls, setControls] = useState(defaultControls);
  const settled = useDebounced(controls, 250);
  const filter = useMemo(() => filterOf(settled), [settled]);
  const { rows, totalCount, hasMore, loading, error, loadMore } = useDialogPages(filter, settled.orderBy);
  useListKeys(useMemo(() => rows.map((row) => row.id), [rows]));

  // Reaching the end of the list loads the next page.
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => {
    const target = end.current;
    if (!target) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore());
    observer.observe(target);
    return () => observer.disconnect();
  }, [loadMore, rows.length]);

  return (
    <nav aria-label="Dialogs" className="dialog-nav">
      <DialogFilters value={controls} onChange={setControls} />
      <p className="dialog-count muted" data-testid="dialog-count">
        {totalCount == null ? "…" : `${rows.length} of ${countText(totalCount)} dialogs`}
      </p>
      {error && !rows.length && <p className="muted pad">Cannot load dialogs: {error}</p>}
      {!error && !loading && !rows.length && (
        <p className="muted pad">No dialogs{totalCount === 0 ? " match" : " yet"}.</p>
      )}
      <ul className="dialog-list" data-testid="dialog-list">
        {rows.map((dialog) => (
          <DialogListItem key={dialog.id} dialog={dialog} selected={dialog.id === selectedId} />
        ))}
        {hasMore && (
          <li ref={end} className="muted pad load-more">
            <button type="button" onClick={() => void loadMore()}>
              {loading ? "Loading…" : "Load more"}
            </button>
          </li>
        )}
      </ul>
    </nav>
  );
}
