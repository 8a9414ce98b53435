// Whether the server can generate (a model provider is configured), which model it proposes, and
// the models the caller's recent dialogs used: the model picker's choices.
import { useMemo } from "react";
import { useQuery } from "urql";
import { RecentModelsDocument } from "../lib/chat-operations.js";

export interface Models {
  /** The server has said (or failed to say): until then nothing is sent, since a message sent as
   * "no model configured" would open a turn that waits for a hand-written answer nobody writes. */
  known: boolean;
  configured: boolean;
  defaultModel: string | null;
  /** The default model first, then the others recent dialogs used. */
  choices: string[];
}

export function useModels(): Models {
  const [{ data, error }] = useQuery({ query: RecentModelsDocument });
  return useMemo(() => {
    const info = data?.models ?? { configured: false, defaultModel: null };
    const used = data?.dialogs.edges.flatMap((edge) => (edge.node.head?.model ? [edge.node.head.model] : [])) ?? [];
    const choices = [...new Set([...(info.defaultModel ? [info.defaultModel] : []), ...used])];
    return { known: data !== undefined || error !== undefined, ...info, choices };
  }, [data, error]);
}
