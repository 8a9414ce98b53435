// `?` opens the list of keyboard shortcuts (and Escape, or `?` again, closes it).
import { useEffect, useState } from "react";
import { isTyping } from "../lib/is-typing.js";

export const SHORTCUTS: [keys: string[], what: string][] = [
  [["/"], "Search all dialogs"],
  [["j"], "Open the next dialog in the list"],
  [["k"], "Open the previous dialog in the list"],
  [["n"], "New chat"],
  [["Enter"], "Send the message (in the message box)"],
  [["Shift", "Enter"], "New line in the message box"],
  [["Esc"], "Leave a text box, close this help"],
  [["?"], "Show or hide this help"],
];

export function KeyboardHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") return setOpen(false);
      if (event.key === "?" && !isTyping(event.target) && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        setOpen((now) => !now);
      }
    };
    window.addEventListener("keydown", onKey);
    const openHelp = () => setOpen(true);
    window.addEventListener(OPEN_HELP, openHelp);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener(OPEN_HELP, openHelp);
    };
  }, []);
  if (!open) return null;
  return (
    <div className="overlay" onClick={() => setOpen(false)}>
      <div
        className="keyboard-help"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        data-testid="keyboard-help"
        onClick={(e) => e.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <dl>
          {SHORTCUTS.map(([keys, what]) => (
            <div key={what}>
              <dt>
                {keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 && " + "}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <button type="button" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </div>
  );
}

/** Dispatched on window to open the help (the sidebar's `?` button). */
export const OPEN_HELP = "dialogql:open-help";
