// Adds a human message as a new turn after the response on screen (the head, or the branch being
// viewed). With a model configured on the server the model answers it (generateResponse);
// without one the turn starts IN_PROGRESS, waiting for an agent. Either way the timeline shows it
// through the same live subscription as any other write.
import { type FormEvent, useEffect, useState } from "react";
import { useCreateResponse } from "../../../src/client/react/index.js";
import { dialogPath, navigate } from "../hooks/use-route.js";
import { useGenerate } from "../hooks/use-generate.js";
import { useModels } from "../hooks/use-models.js";

interface Props {
  dialogId: string;
  /** The response to continue: null continues the dialog's head. */
  previousResponseId: string | null;
}

export function Composer({ dialogId, previousResponseId }: Props) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [{ fetching }, createResponse] = useCreateResponse();
  const [{ fetching: generating }, generate] = useGenerate();
  const models = useModels();
  const [model, setModel] = useState("");
  useEffect(() => setModel((current) => current || models.defaultModel || ""), [models.defaultModel]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const content = text.trim();
    if (!content) return;
    setProblem(null);
    const place = previousResponseId ? { previousResponseId } : { dialogId };
    const input = [{ human: { content } }];
    try {
      if (models.configured) {
        const refused = await generate({ ...place, model: model || models.defaultModel!, input });
        if (refused) return setProblem(refused);
      } else {
        const result = await createResponse({ ...place, input });
        if (result.__typename !== "Response") return setProblem(result.message);
      }
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
        placeholder={
          models.configured ? "Message the model…" : "Add a human message as a new turn (an agent answers it)…"
        }
        rows={2}
        aria-label="Human message"
      />
      {models.configured && (
        <input
          className="composer-model"
          value={model}
          onChange={(event) => setModel(event.target.value)}
          aria-label="Model for this message"
          data-testid="composer-model"
          size={16}
        />
      )}
      <button type="submit" disabled={fetching || generating || !text.trim()}>
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
