// useDialogs(): the newest dialogs, kept fresh. The contract has no subscription for the list of
// dialogs (historyDelta is per dialog), so the list is re-read every `pollIntervalMs`; urql's
// cache also re-reads it after any mutation of this client that returns a Dialog.
import { useEffect } from "react";
import { useQuery } from "urql";
import { DialogsDocument } from "../generated/graphql.js";

export interface UseDialogsOptions {
  first?: number;
  /** How often to re-read the list; 0 never does. */
  pollIntervalMs?: number;
}

export function useDialogs({ first = 50, pollIntervalMs = 2_000 }: UseDialogsOptions = {}) {
  const [result, reexecute] = useQuery({ query: DialogsDocument, variables: { first } });
  useEffect(() => {
    if (!pollIntervalMs) return;
    const timer = setInterval(() => reexecute({ requestPolicy: "network-only" }), pollIntervalMs);
    return () => clearInterval(timer);
  }, [reexecute, pollIntervalMs]);
  return {
    dialogs: result.data?.dialogs.edges.map((edge) => edge.node) ?? [],
    hasMore: result.data?.dialogs.pageInfo.hasNextPage ?? false,
    fetching: result.fetching,
    error: result.error,
    refetch: () => reexecute({ requestPolicy: "network-only" }),
  };
}
