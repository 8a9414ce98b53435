// Expected failures. Each is a GraphQLError, so Yoga shows it as is (unexpected errors are
// masked), and each is also an object type in the schema, returned by mutations as a typed
// result through the Pothos errors plugin.
import { GraphQLError } from "graphql";

/** What a caller is told while the database cannot be reached (GraphQL and REST alike). */
export const UNAVAILABLE_MESSAGE = "Service unavailable: the database cannot be reached; retry shortly";

export type ErrorCode =
  "NOT_FOUND" | "VALIDATION_ERROR" | "CONFLICT" | "MODEL_NOT_CONFIGURED" | "INSUFFICIENT_QUOTA" | "FORBIDDEN";

export abstract class AppError extends GraphQLError {
  abstract readonly code: ErrorCode;
}

export class NotFoundError extends AppError {
  readonly code = "NOT_FOUND";
  constructor(message: string) {
    super(message, { extensions: { code: "NOT_FOUND" } });
  }

  static dialog(id: string) {
    return new NotFoundError(`Dialog ${id} not found`);
  }

  static response(id: string) {
    return new NotFoundError(`Response ${id} not found`);
  }
}

export interface FieldError {
  /** Path of the offending input field, e.g. ["input", "2", "toolCall", "args"]. */
  path: string[];
  message: string;
}

export class ValidationError extends AppError {
  readonly code = "VALIDATION_ERROR";
  constructor(readonly fieldErrors: FieldError[]) {
    super(fieldErrors.map((e) => `${e.path.join(".")}: ${e.message}`).join("; "), {
      extensions: { code: "VALIDATION_ERROR", fieldErrors },
    });
  }

  static at(path: (string | number)[], message: string) {
    return new ValidationError([{ path: path.map(String), message }]);
  }
}

export class ConflictError extends AppError {
  readonly code = "CONFLICT";
  constructor(message: string) {
    super(message, { extensions: { code: "CONFLICT" } });
  }
}

/** A write to a response that is no longer IN_PROGRESS (it ended: here, elsewhere, or was cancelled). */
export class NotInProgressError extends ConflictError {
  constructor(
    responseId: string,
    readonly status: string,
    what: string,
  ) {
    super(`Response ${responseId} is ${status}; only an IN_PROGRESS response ${what}`);
  }
}

/**
 * A text delta whose offset is not where the in-flight text ends (src/history-writes/):
 * a repeat, a gap, or a delta after the server restarted and kept only its last checkpoint. The
 * agent resends from `expectedOffset`.
 */
export class TextOffsetError extends ConflictError {
  constructor(
    readonly expectedOffset: number,
    readonly part: number | null,
    given: number,
  ) {
    super(`offset ${given} is not where the in-flight text ends (${expectedOffset}); resend from ${expectedOffset}`);
    this.extensions.expectedOffset = expectedOffset;
  }
}

/**
 * A call that would generate while its API key or tenant has spent its budget for the period
 * (src/services/budgets.ts): refused before any model is called. /v1 answers it as OpenAI does,
 * 429 `insufficient_quota`.
 */
export class BudgetExceededError extends AppError {
  readonly code = "INSUFFICIENT_QUOTA";
  constructor(
    readonly scope: "KEY" | "TENANT",
    readonly unit: "TOKENS" | "COST",
    readonly period: "DAY" | "MONTH",
    readonly amount: number,
    readonly spent: number,
  ) {
    const what = unit === "TOKENS" ? `${amount} tokens` : `${amount} (cost)`;
    super(
      `You exceeded your current quota: this ${scope === "KEY" ? "API key" : "tenant"} has spent ${spent} of its ` +
        `budget of ${what} per ${period.toLowerCase()}.`,
      { extensions: { code: "INSUFFICIENT_QUOTA", http: { status: 429 } } },
    );
  }
}

/** The caller's key may not do this (budgets are managed with an admin key: npm run keys -- create --admin). */
export class ForbiddenError extends AppError {
  readonly code = "FORBIDDEN";
  constructor(message: string) {
    super(message, { extensions: { code: "FORBIDDEN" } });
  }
}
