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
