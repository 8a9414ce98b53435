import { DialogList } from "./components/DialogList.js";
import { DialogView } from "./components/DialogView.js";
import { Welcome } from "./components/Welcome.js";
import { CompareView } from "./components/workbench/CompareView.js";
import { SearchPanel } from "./components/workbench/SearchPanel.js";
import { UsagePage } from "./components/usage/UsagePage.js";
import { useRoute } from "./hooks/use-route.js";

interface Props {
  /** Set when the viewer calls with a saved API key: forgets it (the server may then ask again). */
  onForgetKey: (() => void) | null;
}

export function App({ onForgetKey }: Props) {
  const { dialogId, responseId, eventSeq, compare, usage } = useRoute();
  return (
    <div className="app">
      <aside className="sidebar">
        <header className="brand">
          <a href="/">dialogql</a>
          <span className="brand-links">
            <a className="usage-link" href="/usage">
              Usage
            </a>
            <a className="graphiql-link" href="/graphql">
              GraphiQL
            </a>
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
        <SearchPanel />
        <DialogList selectedId={dialogId} />
      </aside>
      <main className="main">
        {dialogId && compare ? (
          <CompareView key={compare.join()} dialogId={dialogId} a={compare[0]} b={compare[1]} />
        ) : dialogId ? (
          <DialogView key={dialogId} dialogId={dialogId} responseId={responseId} eventSeq={eventSeq} />
        ) : usage ? (
          <UsagePage />
        ) : (
          <Welcome />
        )}
      </main>
    </div>
  );
}
