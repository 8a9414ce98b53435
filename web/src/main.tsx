import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { DialogqlProvider } from "../../src/client/react/index.js";
import { App } from "./App.js";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <DialogqlProvider url="/graphql">
      <App />
    </DialogqlProvider>
  </StrictMode>,
);
