// "Import chats": pick a ChatGPT export (conversations.json), an Open WebUI or LibreChat export, or
// OpenAI-format JSONL; the progress shows while it is checked and stored, then what came in.
import { useRef } from "react";
import { useImportChats } from "../../hooks/use-import-chats.js";
import { dialogPath } from "../../hooks/use-route.js";
import { Link } from "../Link.js";
import { Problem } from "../chat/Problem.js";

export function ImportButton() {
  const input = useRef<HTMLInputElement>(null);
  const { state, run, reset } = useImportChats();
  const busy = state.phase === "checking" || state.phase === "importing";
  return (
    <div className="import-chats" data-testid="import-chats">
      <button
        type="button"
        onClick={() => input.current?.click()}
        disabled={busy}
        title="ChatGPT's conversations.json, an Open WebUI or LibreChat export, or OpenAI-format JSONL"
      >
        Import chats
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,.jsonl,application/json"
        hidden
        data-testid="import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void run(file);
        }}
      />
      {busy && (
        <p className="import-progress" data-testid="import-progress">
          {state.phase === "checking" ? "Checking" : "Importing"} {state.file}…
          <progress value={state.done} max={state.total} />
        </p>
      )}
      {state.phase === "done" && (
        <p className="import-done" data-testid="import-done" role="status">
          {state.imported} imported{state.skipped ? `, ${state.skipped} already here` : ""}.{" "}
          {state.firstDialogId && <Link href={dialogPath(state.firstDialogId)}>Open the first</Link>}{" "}
          <button type="button" onClick={reset}>
            OK
          </button>
        </p>
      )}
      {state.phase === "failed" && (
        <div data-testid="import-failed">
          <Problem
            message={
              state.stored
                ? `The import of ${state.file} stopped: ${state.problem}. Import it again to finish (nothing is stored twice).`
                : `Nothing was imported from ${state.file}: ${state.problem}`
            }
          />
          <button type="button" onClick={reset}>
            OK
          </button>
        </div>
      )}
    </div>
  );
}
