// The viewer's frame: the sidebar (New chat, search, the dialog list, the tools of slots.tsx) and
// the main pane (a dialog, two branches compared, a page, or a new chat). Narrow screens show one
// at a time: the sidebar opens over the pane from the top bar's Dialogs button.
import { useEffect, useState } from "react";
import { DialogList } from "./components/DialogList.js";
import { DialogView } from "./components/DialogView.js";
import { KeyboardHelp, OPEN_HELP } from "./components/KeyboardHelp.js";
import { Welcome } from "./components/Welcome.js";
import { CompareView } from "./components/workbench/CompareView.js";
import { SearchPanel } from "./components/workbench/SearchPanel.js";
import { navigate, useRoute } from "./hooks/use-route.js";
import { graphiqlServed } from "./lib/server-settings.js";
import { pages, sidebarTools } from "./slots.js";

interface Props {
  /** Set when the viewer calls with a saved API key: forgets it (the server may then ask again). */
  onForgetKey: (() => void) | null;
}

/** The front page with the message box focused, ready to type. */
function startNewChat() {
  navigate("/");
  requestAnimationFrame(() => document.querySelector<HTMLElement>("[data-testid=composer-input]")?.focus());
}

export function App({ onForgetKey }: Props) {
  const { dialogId, responseId, eventSeq, compare, page } = useRoute();
  const [menuOpen, setMenuOpen] = useState(false);
  // Picking a dialog (or anything else) on a narrow screen shows it.
  useEffect(() => setMenuOpen(false), [dialogId, responseId, page]);
  const Page = page ? pages[page] : undefined;
  return (
    <div className={menuOpen ? "app menu-open" : "app"}>
      <header className="top-bar">
        <button type="button" onClick={() => setMenuOpen((open) => !open)} aria-expanded={menuOpen} data-testid="menu">
          ☰ Dialogs
        </button>
        <a href="/" className="top-bar-brand">
          dialogql
        </a>
        <button type="button" onClick={startNewChat}>
          + New
        </button>
      </header>
      <aside className="sidebar">
        <header className="brand">
          <a href="/">dialogql</a>
          <span className="brand-links">
            <a className="usage-link" href="/usage">
              Usage
            </a>
            <button
              type="button"
              className="help-button"
              onClick={() => window.dispatchEvent(new Event(OPEN_HELP))}
              title="Keyboard shortcuts ( ? )"
              aria-label="Keyboard shortcuts"
            >
              ?
            </button>
            {graphiqlServed && (
              <a className="graphiql-link" href="/graphql">
                GraphiQL
              </a>
            )}
            {onForgetKey && (
              <button
                type="button"
                className="forget-key"
                onClick={onForgetKey}
                title="Remove the API key saved in this browser"
              >
                Forget key
              </button>
            )}
          </span>
        </header>
        <div className="sidebar-tools">
          <button type="button" className="new-chat-button" onClick={startNewChat} data-testid="new-chat-button">
            + New chat
          </button>
          {sidebarTools.map((Tool, i) => (
            <Tool key={i} />
          ))}
        </div>
        <SearchPanel />
        <DialogList selectedId={dialogId} />
      </aside>
      <main className="main">
        {dialogId && compare ? (
          <CompareView key={compare.join()} dialogId={dialogId} a={compare[0]} b={compare[1]} />
        ) : dialogId ? (
          <DialogView key={dialogId} dialogId={dialogId} responseId={responseId} eventSeq={eventSeq} />
        ) : Page ? (
          <Page />
        ) : (
          <Welcome />
        )}
      </main>
      <KeyboardHelp />
    </div>
  );
}
