// A failure said as a sentence, with a way to try again.
export function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <p className="problem" role="alert" data-testid="problem">
      <span>{message}</span>
      {onRetry && (
        <button type="button" onClick={onRetry} data-testid="retry">
          Retry
        </button>
      )}
    </p>
  );
}
