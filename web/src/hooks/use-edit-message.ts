// Editing a human message branches from it: the edited turn is asked again (the model answers, or
// it waits for a hand-written answer) as a new response beside the original, continuing the same
// parent (a first turn's edit is a new first turn of the dialog), and the page follows the new branch.
import { useCallback } from "react";
import type { HistoryEvent, HistoryState } from "../../../src/client/index.js";
import { useChat } from "./use-chat.js";
import { useModels } from "./use-models.js";
import { dialogPath, navigate } from "./use-route.js";

/** Resolves to null once the branch is made, or to a readable problem. */
export type EditMessage = (event: HistoryEvent, text: string) => Promise<string | null>;

export function useEditMessage(dialogId: string, history: HistoryState): EditMessage {
  const { sendHuman } = useChat();
  const models = useModels();
  return useCallback(
    async (event, text) => {
      const response = history.responses[event.response.id];
      const parentId = response?.previousResponse?.id ?? null;
      const model = models.configured ? (response?.model ?? models.defaultModel) : null;
      const place = parentId ? { previousResponseId: parentId } : { dialogId, fromStart: true };
      const sent = await sendHuman(place, text, model);
      if ("problem" in sent) return sent.problem;
      navigate(dialogPath(dialogId));
      return null;
    },
    [dialogId, history.responses, models, sendHuman],
  );
}
