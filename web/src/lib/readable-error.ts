// An error as a sentence a reader can act on: never raw JSON. urql's CombinedError prefixes
// "[Network]" / "[GraphQL]"; an HTTP error body from the server is `{ error: { message } }` or
// `{ errors: [{ message }] }`; a JSON error object stored on a response has `message` (and `code`).
export function readableError(error: unknown): string {
  if (error == null) return "Something went wrong.";
  if (typeof error === "string") return fromText(error);
  if (error instanceof Error) {
    const combined = error as Error & { networkError?: Error; graphQLErrors?: { message: string }[] };
    if (combined.graphQLErrors?.length) return combined.graphQLErrors.map((e) => e.message).join("; ");
    if (combined.networkError) return networkSentence(combined.networkError);
    return fromText(error.message);
  }
  if (typeof error === "object") return fromObject(error as Record<string, unknown>) ?? "Something went wrong.";
  return String(error);
}

function fromText(text: string): string {
  const stripped = text.replace(/^\[(Network|GraphQL)\]\s*/, "");
  const trimmed = stripped.trim();
  if (trimmed.startsWith("{")) {
    try {
      return fromObject(JSON.parse(trimmed) as Record<string, unknown>) ?? stripped;
    } catch {
      return stripped;
    }
  }
  return stripped;
}

function fromObject(value: Record<string, unknown>): string | null {
  const nested = value.error;
  if (nested && typeof nested === "object") return fromObject(nested as Record<string, unknown>);
  if (typeof nested === "string") return nested;
  if (Array.isArray(value.errors) && value.errors.length) {
    return value.errors.map((e) => (e as { message?: string }).message ?? "error").join("; ");
  }
  const message = typeof value.message === "string" ? value.message : null;
  const code = typeof value.code === "string" ? value.code : null;
  if (!message) return code ? describeCode(code) : null;
  return message;
}

const codes: Record<string, string> = {
  upstream_error: "the model's server failed",
  MODEL_NOT_CONFIGURED: "no model is configured",
  rate_limit_exceeded: "too many requests",
};

function describeCode(code: string) {
  return codes[code] ?? code.toLowerCase().replaceAll("_", " ");
}

function networkSentence(error: Error) {
  if (/fetch|network/i.test(error.message)) return "The server cannot be reached. Check that it is running.";
  return fromText(error.message);
}
