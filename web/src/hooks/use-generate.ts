// Asking the configured model for the next turn (generateResponse). The answer arrives through the
// dialog's live subscription like any other write; this resolves once the turn is open.
import { useCallback } from "react";
import { useMutation } from "urql";
import { type GenerateResponseInput, GenerateResponseDocument } from "../../../src/client/index.js";

export function useGenerate() {
  const [state, execute] = useMutation(GenerateResponseDocument);
  const generate = useCallback(
    async (input: GenerateResponseInput): Promise<string | null> => {
      const result = await execute({ input });
      if (result.error) return result.error.message;
      const answer = result.data!.generateResponse;
      return answer.__typename === "Response" ? null : answer.message;
    },
    [execute],
  );
  return [state, generate] as const;
}
