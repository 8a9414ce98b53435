// useDialogHistory(dialogId, responseId?, options?): the history of a dialog (its head's context,
// or `responseId`'s) that stays live: watchHistory over the urql Client in context. With `tail`,
// only the context's last events are read at first and `loadEarlier` reads more.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useClient } from "urql";
import type { HistoryState, HistoryWatcher } from "../history-watcher.js";
import { followHistory } from "../watch-history.js";
import { urqlTransport } from "./urql-transport.js";

export interface DialogHistory extends HistoryState {
  /** Reads (at least) `count` more of the `earlier` events. */
  loadEarlier(count: number): Promise<void>;
}

const loading = (dialogId: string, responseId: string | null): HistoryState => ({
  dialogId,
  status: "loading",
  responseId,
  events: [],
  responses: {},
  inFlight: {},
  lastSeq: 0,
  error: null,
  earlier: 0,
});

export function useDialogHistory(
  dialogId: string,
  responseId?: string | null,
  { tail = null }: { tail?: number | null } = {},
): DialogHistory {
  const client = useClient();
  const pinned = responseId || null;
  const [state, setState] = useState(() => loading(dialogId, pinned));
  const watcher = useRef<HistoryWatcher | null>(null);
  useEffect(() => {
    let active = true;
    const following = followHistory(urqlTransport(client), dialogId, {
      responseId: pinned,
      tail,
      onChange: (next) => active && setState(next),
    });
    watcher.current = following;
    return () => {
      active = false;
      following.close();
    };
  }, [client, dialogId, pinned, tail]);
  const loadEarlier = useCallback((count: number) => watcher.current?.loadEarlier(count) ?? Promise.resolve(), []);
  // Until the effect for new arguments has run, the state still describes the old ones.
  const current = state.dialogId === dialogId && (!pinned || state.responseId === pinned);
  const shown = current ? state : null;
  return useMemo(
    () => ({ ...(shown ?? loading(dialogId, pinned)), loadEarlier }),
    [shown, dialogId, pinned, loadEarlier],
  );
}
