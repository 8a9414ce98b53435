// A human message that can be edited: the edit is sent as a new branch from the message's turn
// (the original stays, one branch switch away).
import { type KeyboardEvent, useState } from "react";
import type { HistoryEvent } from "../../../../src/client/index.js";
import type { EditMessage } from "../../hooks/use-edit-message.js";
import { Problem } from "../chat/Problem.js";
import { MessageEvent } from "./MessageEvent.js";

type Human = Extract<HistoryEvent, { __typename: "HumanEvent" }>;

export function HumanMessage({ event, onEdit }: { event: Human; onEdit: EditMessage }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const text = draft?.trim();
    if (!text || busy) return;
    setBusy(true);
    const refused = await onEdit(event, text);
    setBusy(false);
    if (refused) setProblem(refused);
    else setDraft(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void save();
    }
    if (e.key === "Escape") setDraft(null);
  };
  const editTool = (
    <button
      type="button"
      onClick={() => setDraft(event.content)}
      title="Edit into a new branch"
      data-testid="edit-message"
    >
      edit
    </button>
  );
  if (draft == null) return <MessageEvent event={event} kind="human" label="Human" tools={editTool} />;
  return (
    <li className="event event-human editing" data-testid="event-editor" data-seq={event.seq}>
      <textarea
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        aria-label="Edited message"
        autoFocus
        rows={Math.min(10, draft.split("\n").length + 1)}
      />
      <p className="edit-actions">
        <span className="muted">The original stays: the edit is a new branch.</span>
        <button type="button" onClick={() => setDraft(null)}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void save()}
          disabled={busy || !draft.trim()}
          data-testid="save-edit"
        >
          Send as a new branch
        </button>
      </p>
      {problem && <Problem message={problem} onRetry={() => void save()} />}
    </li>
  );
}
