// Titles a dialog started in this tab once its first exchange has ended (the model writes the title
// when one is configured); the dialog list and header pick the title up on their next read.
import { useEffect } from "react";
import type { HistoryState } from "../../../src/client/index.js";
import { startedHere } from "../lib/started-here.js";
import { DIALOG_CHANGED } from "./use-dialog-pages.js";
import { useChat } from "./use-chat.js";

export function useAutoTitle(dialogId: string, history: HistoryState, onTitled: () => void) {
  const { title } = useChat();
  const tip = history.responseId ? history.responses[history.responseId] : undefined;
  const ended = Boolean(tip && tip.status !== "IN_PROGRESS");
  useEffect(() => {
    if (!ended || !startedHere.has(dialogId)) return;
    const model = startedHere.get(dialogId) ?? null;
    startedHere.delete(dialogId);
    void title(dialogId, model).then(() => {
      onTitled();
      window.dispatchEvent(new Event(DIALOG_CHANGED));
    });
  }, [ended, dialogId, title, onTitled]);
}
