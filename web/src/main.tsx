import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import { ApiKeyGate } from "./components/ApiKeyGate.js";
import { SharedDialog } from "./components/share/SharedDialog.js";
import "./styles.css";
import "./workbench.css";
import "./chat.css";

// A share link's page needs no API key: it reads through its token alone.
const sharedToken = /^\/shared\/([^/]+)\/?$/.exec(window.location.pathname)?.[1];

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    {sharedToken ? (
      <SharedDialog token={decodeURIComponent(sharedToken)} />
    ) : (
      <ApiKeyGate>{({ onForgetKey }) => <App onForgetKey={onForgetKey} />}</ApiKeyGate>
    )}
  </StrictMode>,
);
