// "Regenerate from here": ask the model again for a response's turn — the same human input,
// continuing the same parent (or, for a first turn, from the dialog's start) — which makes a new
// branch beside it; the viewer follows the new one.
import { useState } from "react";
import { dialogPath, navigate } from "../hooks/use-route.js";
import { useGenerate } from "../hooks/use-generate.js";
import { useModels } from "../hooks/use-models.js";
import { readableError } from "../lib/readable-error.js";

interface Props {
  dialogId: string;
  /** The turn's parent; null for a first turn. */
  parentId: string | null;
  /** The turn's human messages, sent again. */
  inputs: string[];
  model: string | null;
  /** The button's words: "Retry" for a failed turn. */
  label?: string;
}

export function RegenerateButton({ dialogId, parentId, inputs, model, label = "Regenerate" }: Props) {
  const models = useModels();
  const [{ fetching }, generate] = useGenerate();
  const [problem, setProblem] = useState<string | null>(null);
  if (!models.configured || !inputs.length) return null;
  const regenerate = async () => {
    setProblem(null);
    const refused = await generate({
      ...(parentId ? { previousResponseId: parentId } : { dialogId, fromStart: true }),
      model: model ?? models.defaultModel!,
      input: inputs.map((content) => ({ human: { content } })),
    });
    if (refused) setProblem(refused);
    else navigate(dialogPath(dialogId));
  };
  return (
    <>
      <button
        type="button"
        className="regenerate"
        title="Ask the model again for this turn: a new branch beside it"
        onClick={regenerate}
        disabled={fetching}
        data-testid="regenerate"
      >
        {label}
      </button>
      {problem && <span role="alert">{readableError(problem)}</span>}
    </>
  );
}
