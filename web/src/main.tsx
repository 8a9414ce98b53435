import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import { ApiKeyGate } from "./components/ApiKeyGate.js";
import "./styles.css";
import "./workbench.css";
import "./chat.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ApiKeyGate>{({ onForgetKey }) => <App onForgetKey={onForgetKey} />}</ApiKeyGate>
  </StrictMode>,
);
