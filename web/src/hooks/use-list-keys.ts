// Keyboard navigation of the workbench: `/` focuses search, `j`/`k` (or ↓/↑ with Alt) open the next
// or previous dialog of the list, `n` starts a new chat, `Escape` leaves a text box (the `?` help
// lists them all: components/KeyboardHelp.tsx). Keys typed into a text box are its own.
import { useEffect } from "react";
import { isTyping } from "../lib/is-typing.js";
import { dialogPath, navigate, parseRoute } from "./use-route.js";

export function useListKeys(ids: readonly string[]) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && isTyping(event.target)) {
        (event.target as HTMLElement).blur();
        return;
      }
      if (isTyping(event.target) || event.ctrlKey || event.metaKey) return;
      if (event.key === "n" && !event.altKey) {
        event.preventDefault();
        navigate("/");
        requestAnimationFrame(() => document.querySelector<HTMLElement>("[data-testid=composer-input]")?.focus());
        return;
      }
      if (event.key === "/") {
        event.preventDefault();
        document.querySelector<HTMLInputElement>("[data-testid=search-input]")?.focus();
        return;
      }
      const step =
        event.key === "j" || (event.altKey && event.key === "ArrowDown")
          ? 1
          : event.key === "k" || (event.altKey && event.key === "ArrowUp")
            ? -1
            : 0;
      if (!step || !ids.length) return;
      event.preventDefault();
      // The address, not a render's copy of it: a key pressed right after another sees its move.
      const selectedId = parseRoute(window.location).dialogId;
      const index = selectedId ? ids.indexOf(selectedId) : -1;
      const next = ids[Math.min(ids.length - 1, Math.max(0, index + step))];
      if (next && next !== selectedId) {
        navigate(dialogPath(next));
        document.querySelector(`[data-dialog-id="${CSS.escape(next)}"]`)?.scrollIntoView({ block: "nearest" });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [ids]);
}
