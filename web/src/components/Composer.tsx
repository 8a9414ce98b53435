// Adds a human message as a new turn after the response on screen (the head, or the branch being
// viewed). The turn starts IN_PROGRESS, waiting for an agent to answer it; the timeline shows it
// through the same live subscription as any other write.
import { type FormEvent, useState } from "react";
import { useCreateResponse } from "../../../src/client/react/index.js";
import { dialogPath, navigate } from "../hooks/use-route.js";

interface Props {
  dialogId: string;
  /** The response to continue: null continues the dialog's head. */
  previousResponseId: string | null;
}

export function Composer({ dialogId, previousResponseId }: Props) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [{ fetching }, createResponse] = useCreateResponse();

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const content = text.trim();
    if (!content) return;
    setProblem(null);
    try {
      const result = await createResponse({
        ...(previousResponseId ? { previousResponseId } : { dialogId }),
        input: [{ human: { content } }],
      });
      if (result.__typename !== "Response") return setProblem(result.message);
      setText("");
      // The new turn is the dialog's head now: follow it (a pinned branch would not show it).
      navigate(dialogPath(dialogId));
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <form className="composer" data-testid="composer" onSubmit={send}>
      <textarea
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Add a human message as a new turn (an agent answers it)…"
        rows={2}
        aria-label="Human message"
      />
      <button type="submit" disabled={fetching || !text.trim()}>
        Send
      </button>
      {problem && (
        <p className="composer-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
