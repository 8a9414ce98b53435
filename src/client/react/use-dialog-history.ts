// useDialogHistory(dialogId, responseId?): the history of a dialog (its head's context, or
// `responseId`'s) that stays live: watchHistory over the urql Client in context.
import { useEffect, useState } from "react";
import { useClient } from "urql";
import type { HistoryState } from "../history-watcher.js";
import { followHistory } from "../watch-history.js";
import { urqlTransport } from "./urql-transport.js";

const loading = (dialogId: string, responseId: string | null): HistoryState => ({
  dialogId,
  status: "loading",
  responseId,
  events: [],
  responses: {},
  inFlight: {},
  lastSeq: 0,
  error: null,
});

export function useDialogHistory(dialogId: string, responseId?: string | null): HistoryState {
  const client = useClient();
  const pinned = responseId || null;
  const [state, setState] = useState(() => loading(dialogId, pinned));
  useEffect(() => {
    let active = true;
    const watcher = followHistory(urqlTransport(client), dialogId, {
      responseId: pinned,
      onChange: (next) => active && setState(next),
    });
    return () => {
      active = false;
      watcher.close();
    };
  }, [client, dialogId, pinned]);
  // Until the effect for new arguments has run, the state still describes the old ones.
  const current = state.dialogId === dialogId && (!pinned || state.responseId === pinned);
  return current ? state : loading(dialogId, pinned);
}
