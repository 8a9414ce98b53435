// Errors in the Responses API's shape — {"error": {"message", "type", "param", "code"}} — with its
// status codes and codes, from dialogql's typed errors.
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { BudgetExceededError, ConflictError, NotFoundError, ValidationError } from "../errors.js";
import { ModelNotConfiguredError } from "../generation/providers.js";
import { UNAVAILABLE_MESSAGE } from "../errors.js";
import { fromValidation, InvalidRequest } from "./create-request.js";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }

  static previousNotFound(id: string) {
    return new ApiError(
      400,
      `Previous response with id '${id}' not found.`,
      "invalid_request_error",
      "previous_response_id",
      "previous_response_not_found",
    );
  }

  static conversationNotFound(id: string) {
    return new ApiError(
      404,
      `Conversation with id '${id}' not found.`,
      "invalid_request_error",
      "conversation",
      "conversation_not_found",
    );
  }

  static responseNotFound(id: string) {
    return new ApiError(
      404,
      `Response with id '${id}' not found.`,
      "invalid_request_error",
      null,
      "response_not_found",
    );
  }
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });

export const errorBody = (error: ApiError) => ({
  error: { message: error.message, type: error.type, param: error.param, code: error.code },
});

/** Any thrown error as an API error; null for an unexpected one (the caller logs it and answers 500). */
export function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof InvalidRequest) return new ApiError(400, error.message, "invalid_request_error", error.param);
  if (error instanceof ValidationError) return toApiError(fromValidation(error));
  if (error instanceof ModelNotConfiguredError) {
    return new ApiError(400, error.message, "invalid_request_error", "model", "model_not_configured");
  }
  // OpenAI's answer to an account out of credit.
  if (error instanceof BudgetExceededError) {
    return new ApiError(429, error.message, "insufficient_quota", null, "insufficient_quota");
  }
  if (error instanceof NotFoundError)
    return new ApiError(404, error.message, "invalid_request_error", null, "not_found");
  if (error instanceof ConflictError)
    return new ApiError(409, error.message, "invalid_request_error", null, "conflict");
  if (isDatabaseUnavailable(error)) return new ApiError(503, UNAVAILABLE_MESSAGE, "server_error", null, "unavailable");
  return null;
}

export function errorResponse(error: ApiError) {
  return json(error.status, errorBody(error));
}

/**
 * The refusal a non-streamed turn is answered with, saying what is stored (null when it ended well
 * and is stored): every door (/v1/responses, /v1/chat/completions, /v1/messages) answers with it.
 */
export function endedTurnError(
  outcome: { status: string; stored: boolean; error: { code: string; message: string } | null },
  responseId: string,
): ApiError | null {
  if (!outcome.stored) {
    const message = `The turn ended ${outcome.status.toLowerCase()}, but its end could not be stored (the database is unavailable): response ${responseId} is stored as in progress, and is closed as incomplete once the server notices it was abandoned.`;
    return new ApiError(503, message, "server_error", null, "unavailable");
  }
  if (outcome.status !== "FAILED") return null;
  if (outcome.error?.code === "unavailable") {
    const message = `${outcome.error.message} (response ${responseId} is stored as failed)`;
    return new ApiError(503, message, "server_error", null, "unavailable");
  }
  const message = `The model upstream failed (response ${responseId} is stored as failed): ${outcome.error?.message}`;
  return new ApiError(502, message, "server_error", null, "upstream_error");
}
