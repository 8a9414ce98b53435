// The dialog list, a page at a time as the reader scrolls, for the filters of the moment. There is no
// subscription for the list of dialogs, and an idle tab must not poll: the first page is re-read
// when this viewer writes (DIALOG_CHANGED), when the tab comes back into view, and every `pollMs`
// only when a caller asks for it (0, the default, never).
import { useCallback, useEffect, useRef, useState } from "react";
import { useClient } from "urql";
import type { DialogOrder, DialogPageQuery, SearchFilter } from "../../../src/client/index.js";
import { countAfterRemoval } from "../lib/counts.js";
import { DialogPageDocument } from "../lib/operations.js";

export type DialogRowData = DialogPageQuery["dialogs"]["edges"][number]["node"];

const PAGE = 50;

/** Dispatched on window with the dialog id as detail when the viewer deletes a dialog. */
export const DIALOG_DELETED = "dialogql:dialog-deleted";
/** Dispatched on window when the dialog on screen sees a write (its history moved). */
export const DIALOG_CHANGED = "dialogql:dialog-changed";

interface State {
  rows: DialogRowData[];
  totalCount: number | null;
  endCursor: string | null;
  hasMore: boolean;
  loading: boolean;
  error: string | null;
}

const empty: State = { rows: [], totalCount: null, endCursor: null, hasMore: false, loading: true, error: null };

export function useDialogPages(filter: SearchFilter, orderBy: DialogOrder, pollMs = 0) {
  const client = useClient();
  const [state, setState] = useState<State>(empty);
  const key = JSON.stringify([filter, orderBy]);
  const keyRef = useRef(key);
  keyRef.current = key;

  const read = useCallback(
    (after: string | null) =>
      client
        .query(DialogPageDocument, { first: PAGE, after, filter, orderBy }, { requestPolicy: "network-only" })
        .toPromise(),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client, key],
  );

  // The first page: on a new filter it replaces the list, on a poll it is merged into it.
  useEffect(() => {
    let active = true;
    setState(empty);
    const refresh = async (merge: boolean) => {
      const result = await read(null);
      if (!active || keyRef.current !== key) return;
      if (result.error || !result.data) {
        setState((s) => ({ ...s, loading: false, error: result.error?.message ?? "no data" }));
        return;
      }
      const page = result.data.dialogs;
      const fresh = page.edges.map((edge) => edge.node);
      setState((s) => {
        if (!merge || !s.rows.length) {
          return {
            rows: fresh,
            totalCount: page.totalCount,
            endCursor: page.pageInfo.endCursor ?? null,
            hasMore: page.pageInfo.hasNextPage,
            loading: false,
            error: null,
          };
        }
        const freshIds = new Set(fresh.map((row) => row.id));
        const rest = s.rows.filter((row) => !freshIds.has(row.id));
        return { ...s, rows: [...fresh, ...rest], totalCount: page.totalCount, loading: false, error: null };
      });
    };
    void refresh(false);
    const timer = pollMs ? setInterval(() => void refresh(true), pollMs) : undefined;
    // A dialog open in this viewer saw a write: the list need not wait for the next poll.
    const changed = () => void refresh(true);
    window.addEventListener(DIALOG_CHANGED, changed);
    // Back to the tab: what agents wrote meanwhile shows up.
    const visible = () => document.visibilityState === "visible" && void refresh(true);
    document.addEventListener("visibilitychange", visible);
    window.addEventListener("focus", changed);
    return () => {
      active = false;
      clearInterval(timer);
      window.removeEventListener(DIALOG_CHANGED, changed);
      document.removeEventListener("visibilitychange", visible);
      window.removeEventListener("focus", changed);
    };
  }, [read, key, pollMs]);

  const loadMore = useCallback(async () => {
    if (!state.hasMore || state.loading) return;
    setState((s) => ({ ...s, loading: true }));
    const result = await read(state.endCursor);
    if (keyRef.current !== key) return;
    const page = result.data?.dialogs;
    setState((s) => {
      if (!page) return { ...s, loading: false, error: result.error?.message ?? "no data" };
      const known = new Set(s.rows.map((row) => row.id));
      const more = page.edges.map((edge) => edge.node).filter((row) => !known.has(row.id));
      return {
        ...s,
        rows: [...s.rows, ...more],
        endCursor: page.pageInfo.endCursor ?? null,
        hasMore: page.pageInfo.hasNextPage,
        loading: false,
      };
    });
  }, [read, key, state.hasMore, state.loading, state.endCursor]);

  // A dialog deleted in this viewer leaves the list at once.
  useEffect(() => {
    const removed = (event: Event) => {
      const id = (event as CustomEvent<string>).detail;
      setState((s) => ({
        ...s,
        rows: s.rows.filter((row) => row.id !== id),
        totalCount: s.totalCount == null ? null : countAfterRemoval(s.totalCount),
      }));
    };
    window.addEventListener(DIALOG_DELETED, removed);
    return () => window.removeEventListener(DIALOG_DELETED, removed);
  }, []);

  return { ...state, loadMore };
}
