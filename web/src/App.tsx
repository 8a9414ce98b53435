import { DialogList } from "./components/DialogList.js";
import { DialogView } from "./components/DialogView.js";
import { Welcome } from "./components/Welcome.js";
import { useRoute } from "./hooks/use-route.js";

interface Props {
  /** Set when the viewer calls with a saved API key: forgets it (the server may then ask again). */
  onForgetKey: (() => void) | null;
}

export function App({ onForgetKey }: Props) {
  const { dialogId, responseId } = useRoute();
  return (
    <div className="app">
      <aside className="sidebar">
        <header className="brand">
          <a href="/">dialogql</a>
          <span className="brand-links">
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
        <DialogList selectedId={dialogId} />
      </aside>
      <main className="main">
        {dialogId ? <DialogView key={dialogId} dialogId={dialogId} responseId={responseId} /> : <Welcome />}
      </main>
    </div>
  );
}
