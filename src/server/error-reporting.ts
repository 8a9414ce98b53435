// Unexpected failures are never shown to a client as they are. A database that cannot be reached
// becomes UNAVAILABLE (retry later); anything else INTERNAL_SERVER_ERROR. Both carry the request
// id, and the original error is logged with it. Expected failures (GraphQLErrors made on purpose:
// NOT_FOUND, VALIDATION_ERROR, limits…) pass unchanged.
import { handleStreamOrSingleExecutionResult, isAsyncIterable, type Plugin } from "graphql-yoga";
import { type ExecutionResult, GraphQLError } from "graphql";
import { isTenantShareBusy } from "../db/tenant-work.js";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { tenantBusyError } from "../schema/request-budget.js";
import { UNAVAILABLE_MESSAGE } from "../errors.js";
import { mapStream } from "../live/map-stream.js";
import { logger } from "../logger.js";

export { UNAVAILABLE_MESSAGE };

/** A made-on-purpose GraphQLError, possibly wrapped by graphql-js around another GraphQLError. */
function isExpected(error: unknown): boolean {
  if (!(error instanceof GraphQLError)) return false;
  return error.originalError == null || isExpected(error.originalError);
}

export function toClientError(error: unknown, requestId: string | undefined): GraphQLError {
  if (isExpected(error)) return error as GraphQLError;
  const located = error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {};
  // The tenant's own queue for its share of the pool is full: its retry, not an outage.
  if (isTenantShareBusy(error)) return tenantBusyError(located);
  if (isDatabaseUnavailable(error)) {
    logger.warn(`request ${requestId}: database unavailable: ${describe(error)}`);
    return new GraphQLError(UNAVAILABLE_MESSAGE, { ...located, extensions: { code: "UNAVAILABLE", requestId } });
  }
  logger.error(
    `request ${requestId}: unexpected error`,
    error instanceof GraphQLError ? (error.originalError ?? error) : error,
  );
  return new GraphQLError("Unexpected error.", {
    ...located,
    extensions: { code: "INTERNAL_SERVER_ERROR", requestId },
  });
}

function describe(error: unknown) {
  const inner = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  return inner instanceof Error ? inner.message.split("\n").filter(Boolean).at(-1) : String(inner);
}

/**
 * For errors outside execution (request parsing): a request whose `variables` or `extensions` are
 * not JSON is the client's mistake, a 400, not a bug of ours.
 */
export function toRequestError(error: unknown): GraphQLError {
  if (error instanceof SyntaxError) {
    return new GraphQLError(`Invalid JSON in the request: ${error.message}`, {
      extensions: { code: "BAD_REQUEST", http: { status: 400 } },
    });
  }
  return toClientError(error, undefined);
}

type WithRequestId = { requestId?: string };

/** Applies toClientError to execution results, subscription events and errors a stream throws. */
export function useErrorReporting(): Plugin<WithRequestId> {
  const cleanResult = (requestId: string | undefined) => (result: ExecutionResult) =>
    result.errors?.length ? { ...result, errors: result.errors.map((e) => toClientError(e, requestId)) } : result;
  return {
    onExecute({ args }) {
      const clean = cleanResult(args.contextValue.requestId);
      return {
        onExecuteDone: (payload) =>
          handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => setResult(clean(result))),
      };
    },
    onSubscribe({ args }) {
      const requestId = args.contextValue.requestId;
      const clean = cleanResult(requestId);
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result)) return setResult(clean(result));
          setResult(mapStream(result, clean, (error) => toClientError(error, requestId)));
        },
        onSubscribeError({ error, setError }) {
          setError(toClientError(error, requestId));
        },
      };
    },
  };
}
