// Asked for when the server refuses the viewer (HTTP 401 / WebSocket 4401): the server has API
// keys, so the viewer needs one. The key is checked by using it; a refused one comes back here
// with the server's reason.
import { type FormEvent, useState } from "react";
import type { Refusal } from "../hooks/use-api-key.js";

interface Props {
  refusal: Refusal;
  onSubmit: (key: string) => void;
}

export function SignIn({ refusal, onSubmit }: Props) {
  const [key, setKey] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim()) onSubmit(key.trim());
  };
  return (
    <main className="sign-in-page">
      <form className="sign-in" data-testid="sign-in" onSubmit={submit}>
        <h1>dialogql</h1>
        <p>
          This server requires an API key. Create one with <code>npm run keys -- create --tenant &lt;name&gt;</code> and
          paste it here.
        </p>
        {refusal.refusedKeyReason && (
          <p className="sign-in-problem" role="alert" data-testid="sign-in-problem">
            That key was refused: {refusal.refusedKeyReason}
          </p>
        )}
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          value={key}
          onChange={(event) => setKey(event.target.value)}
          placeholder="dq_…"
          autoComplete="off"
          spellCheck={false}
          autoFocus
        />
        <button type="submit" disabled={!key.trim()}>
          Sign in
        </button>
        <p className="muted small">The key is kept in this browser until you choose “Forget key”.</p>
      </form>
    </main>
  );
}
