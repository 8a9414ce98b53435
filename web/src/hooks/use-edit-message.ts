// Editing a human message branches from it: the edited turn is asked again (the model answers, or
// it waits for a hand-written answer) as a new response beside the original, continuing the same
// parent, and the page follows the new branch. The first turn has no parent to branch from within
// the dialog, so editing it starts a new chat.
import { useCallback } from "react";
import type { HistoryEvent, HistoryState } from "../../../src/client/index.js";
import { startedHere } from "../lib/started-here.js";
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
      const sent = await sendHuman(parentId ? { previousResponseId: parentId } : {}, text, model);
      if ("problem" in sent) return sent.problem;
      if (!parentId) startedHere.set(sent.dialogId, model);
      navigate(dialogPath(parentId ? dialogId : sent.dialogId));
      return null;
    },
    [dialogId, history.responses, models, sendHuman],
  );
}
