// What a tenant is told when the model upstream fails, and what the operator is told. An upstream's
// own error text is not the tenant's to read: a provider may echo the credentials it was sent
// ("Incorrect API key provided: Bearer sk-…"), and a network error names the upstream's address
// ("connect ECONNREFUSED 10.0.0.7:8000"). So the tenant gets a fixed message chosen by the kind of
// failure (with the HTTP status when there was one) and the code `upstream_error`, in the HTTP answer
// and in the stored `Response.error` alike; the whole detail goes to the log, with anything that
// looks like a secret redacted.
import { APICallError, RetryError } from "ai";
import { logger } from "../logger.js";

export interface UpstreamFailure {
  code: "upstream_error";
  message: string;
}

/** The safe description of `failure` (an AI SDK error, a network error, or nothing: the stream ended). */
export function describeUpstreamFailure(failure: unknown): UpstreamFailure {
  return { code: "upstream_error", message: safeMessage(failure) };
}

/**
 * Logs the whole failure for the operator, secrets redacted, with the upstream's HTTP status (also as
 * `upstreamStatus`) when it answered one — after retries too, where the AI SDK wraps it.
 */
export function logUpstreamFailure(responseId: string, failure: unknown) {
  const status = upstreamStatus(failure);
  const said = status === undefined ? "" : ` (HTTP ${status})`;
  logger.warn(`response ${responseId}: the model upstream failed${said}: ${redactSecrets(detailOf(failure))}`, {
    responseId,
    ...(status === undefined ? {} : { upstreamStatus: status }),
  });
}

/** The last HTTP status the upstream answered, when it answered one. */
function upstreamStatus(failure: unknown): number | undefined {
  const last = lastAttempt(failure);
  return APICallError.isInstance(last) ? last.statusCode : undefined;
}

/** The last attempt's error of a call the retries gave up on, else the failure itself. */
function lastAttempt(failure: unknown): unknown {
  // isInstance, not instanceof: the retries run in ai/internal, whose bundle has its own copy of the class.
  return RetryError.isInstance(failure) ? failure.lastError : failure;
}

function safeMessage(failure: unknown): string {
  if (failure === undefined || failure === null) return "The model's stream ended before the model finished.";
  const last = lastAttempt(failure);
  const status = upstreamStatus(failure);
  if (APICallError.isInstance(last) && status !== undefined) {
    if (status === 401 || status === 403)
      return `The model provider refused the server's credentials (HTTP ${status}); an operator must check its configuration.`;
    if (status === 429) return "The model provider is limiting requests (HTTP 429); try again later.";
    if (status >= 500) return `The model provider failed (HTTP ${status}); try again later.`;
    return `The model provider refused the request (HTTP ${status}).`;
  }
  if (hasNetworkCause(last)) return "The model provider could not be reached; try again later.";
  return "The model provider failed.";
}

/** A connection that failed or was cut (refused, reset, unknown host, timed out). */
function hasNetworkCause(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return true;
    if (cause instanceof TypeError && /fetch failed|terminated/i.test(cause.message)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

function detailOf(failure: unknown): string {
  if (failure === undefined || failure === null) return "the stream ended early";
  const parts: string[] = [];
  for (let cause: unknown = failure, depth = 0; cause && depth < 5; depth++) {
    if (RetryError.isInstance(cause)) {
      // Retried: the last attempt's error says what the upstream answered ("Failed after 3 attempts" does not).
      parts.push(`${cause.name}: ${cause.message}`);
      cause = cause.lastError;
    } else if (cause instanceof Error) {
      const status = APICallError.isInstance(cause) ? ` (HTTP ${cause.statusCode ?? "?"}, ${cause.url})` : "";
      parts.push(`${cause.name}: ${cause.message}${status}`);
      if (APICallError.isInstance(cause) && cause.responseBody)
        parts.push(`body: ${cause.responseBody.slice(0, 2_000)}`);
      cause = (cause as { cause?: unknown }).cause;
    } else {
      parts.push(String(cause));
      break;
    }
  }
  return parts.join(" <- ");
}

// Bearer tokens, provider keys (sk-…, sk-ant-…), dialogql keys (dq_…), key-like query parameters and
// passwords in URLs.
const SECRETS: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[^\s"',]+/gi, "$1 [redacted]"],
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{6,}/g, "$1-[redacted]"],
  [/\bdq_[A-Za-z0-9_-]{6,}/g, "dq_[redacted]"],
  [/([?&](?:api[_-]?key|key|token|access_token)=)[^&\s"']+/gi, "$1[redacted]"],
  [/(\/\/[^/\s:@]+:)[^@\s/]+@/g, "$1[redacted]@"],
];

export function redactSecrets(text: string): string {
  return SECRETS.reduce((redacted, [pattern, replacement]) => redacted.replace(pattern, replacement), text);
}
