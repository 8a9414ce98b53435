// Said plainly when the server has no model: nothing will answer by itself, and what to do.
export function NoModelNote({ waiting }: { waiting: boolean }) {
  return (
    <p className="composer-note" data-testid="no-model-note" role="note">
      {waiting ? (
        <>
          This turn <strong>waits for an answer</strong>: write it below as the AI, send a new message, or Stop it.
        </>
      ) : (
        <>
          <strong>No model is configured</strong>, so nothing answers by itself: write both sides by hand (Write as
          Human / AI). To chat with a model, start the server with <code>OPENAI_API_KEY</code> (and{" "}
          <code>OPENAI_BASE_URL</code> for Ollama, vLLM…) or <code>ANTHROPIC_API_KEY</code>.
        </>
      )}
    </p>
  );
}
