// The message box under a dialog (and on the New chat page). Enter sends, Shift+Enter starts a new
// line. With a model configured the model answers (the picker says which); while it answers, Stop
// cancels the turn. Without a model the page says so, and both sides are written by hand: a human
// message opens a turn that waits, and an AI message written next answers it.
import { type FormEvent, type KeyboardEvent, useEffect, useState } from "react";
import type { ResponseSummary } from "../../../src/client/index.js";
import { type Place, type Sent, useChat } from "../hooks/use-chat.js";
import { useModels } from "../hooks/use-models.js";
import { ModelPicker } from "./chat/ModelPicker.js";
import { NoModelNote } from "./chat/NoModelNote.js";
import { Problem } from "./chat/Problem.js";

interface Props {
  /** The dialog written to; null on the New chat page (the first message makes the dialog). */
  dialogId: string | null;
  /** The response to continue: null continues the dialog's head. */
  previousResponseId: string | null;
  /** The response on screen's tip: an IN_PROGRESS one can be stopped (or, by hand, answered). */
  tip: ResponseSummary | null;
  onSent: (sent: { dialogId: string; responseId: string; model: string | null }) => void;
  autoFocus?: boolean;
}

type Role = "human" | "ai";

export function Composer({ dialogId, previousResponseId, tip, onSent, autoFocus }: Props) {
  const models = useModels();
  const chat = useChat();
  const [text, setText] = useState("");
  const [model, setModel] = useState("");
  const [role, setRole] = useState<Role>("human");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; retry: () => void } | null>(null);
  useEffect(() => setModel((current) => current || models.defaultModel || ""), [models.defaultModel]);
  const running = tip?.status === "IN_PROGRESS";
  const waiting = running && models.known && !models.configured;
  // Written by hand, the next message after a waiting turn is its answer.
  useEffect(() => setRole(waiting ? "ai" : "human"), [waiting]);

  const place: Place = previousResponseId ? { previousResponseId } : { dialogId };
  const send = async () => {
    const content = text.trim();
    // Before the server has said whether a model answers, a message would be sent as hand-written.
    if (!content || busy || !models.known) return;
    setBusy(true);
    setProblem(null);
    const chosen = models.configured ? model.trim() || models.defaultModel : null;
    let sent: Sent;
    if (role === "ai") sent = await chat.writeAnswer(place, content, waiting ? tip!.id : null);
    else {
      // A turn left waiting is closed first: a new question means nobody answers it now.
      if (waiting) await chat.stop(tip!.id);
      sent = await chat.sendHuman(place, content, chosen);
    }
    setBusy(false);
    if ("problem" in sent) return setProblem({ message: sent.problem, retry: () => void send() });
    setText("");
    onSent({ dialogId: sent.dialogId || dialogId || "", responseId: sent.responseId, model: chosen });
  };
  const stop = async () => {
    if (!tip) return;
    const refused = await chat.stop(tip.id);
    if (refused) setProblem({ message: refused, retry: () => void stop() });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter is a new line; Enter that ends an IME composition is not a send.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form className="composer" data-testid="composer" onSubmit={submit}>
      {models.known && !models.configured && <NoModelNote waiting={waiting} />}
      <textarea
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={placeholder(models.configured, role)}
        rows={2}
        aria-label={role === "ai" ? "AI message" : "Human message"}
        autoFocus={autoFocus}
        data-testid="composer-input"
      />
      <div className="composer-bar">
        {models.configured ? (
          <ModelPicker value={model} choices={models.choices} onChange={setModel} />
        ) : (
          <label className="composer-role">
            Write as{" "}
            <select value={role} onChange={(e) => setRole(e.target.value as Role)} data-testid="composer-role">
              <option value="human">Human</option>
              <option value="ai">AI</option>
            </select>
          </label>
        )}
        <span className="composer-hint muted">Enter to send · Shift+Enter for a new line</span>
        {running && (
          <button type="button" className="stop" onClick={() => void stop()} data-testid="stop">
            Stop
          </button>
        )}
        <button type="submit" disabled={busy || !models.known || !text.trim()} data-testid="send">
          Send
        </button>
      </div>
      {problem && <Problem message={problem.message} onRetry={problem.retry} />}
    </form>
  );
}

function placeholder(configured: boolean, role: Role) {
  if (configured) return "Message the model…";
  return role === "ai" ? "Write the answer, as the AI…" : "Write a message, as the human…";
}
