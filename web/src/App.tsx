import { DialogList } from "./components/DialogList.js";
import { DialogView } from "./components/DialogView.js";
import { Welcome } from "./components/Welcome.js";
import { useRoute } from "./hooks/use-route.js";

export function App() {
  const { dialogId, responseId } = useRoute();
  return (
    <div className="app">
      <aside className="sidebar">
        <header className="brand">
          <a href="/">dialogql</a>
          <a className="graphiql-link" href="/graphql">
            GraphiQL
          </a>
        </header>
        <DialogList selectedId={dialogId} />
      </aside>
      <main className="main">
        {dialogId ? <DialogView key={dialogId} dialogId={dialogId} responseId={responseId} /> : <Welcome />}
      </main>
    </div>
  );
}
