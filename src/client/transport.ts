// The two things every part of the client needs from the network: run one operation, and follow
// one subscription. Kept as an interface so watchHistory runs the same over graphql-ws, SSE or an
// app's own urql client (src/client/react/urql-transport.ts).
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";

export interface GraphQLErrorLike {
  message: string;
  path?: readonly (string | number)[] | undefined;
  extensions?: Record<string, unknown> | undefined;
}

export interface ExecutionResult<TData> {
  data?: TData | null | undefined;
  errors?: readonly GraphQLErrorLike[] | undefined;
}

export interface ResultSink<TData> {
  next(result: ExecutionResult<TData>): void;
  /** The connection failed or dropped; the subscription is over. */
  error(error: unknown): void;
  complete(): void;
}

export interface Transport {
  /**
   * Runs one query or mutation. GraphQL errors come back in the result; the promise rejects only
   * when no result could be had (server unreachable, HTTP error without a GraphQL body).
   */
  execute<TData, TVariables>(
    document: TypedDocumentNode<TData, TVariables>,
    variables: TVariables,
  ): Promise<ExecutionResult<TData>>;
  /**
   * Starts a subscription and returns the function that ends it. A dropped connection ends it with
   * `error`; the transport does not resubscribe by itself, because it would resend the original
   * variables and a resumable stream (historyDelta's afterSeq) must resume from where it got to.
   */
  subscribe<TData, TVariables>(
    document: TypedDocumentNode<TData, TVariables>,
    variables: TVariables,
    sink: ResultSink<TData>,
  ): () => void;
}

/** A GraphQL error result as an Error, carrying the errors and the first one's code. */
export class DialogqlError extends Error {
  readonly code: string | undefined;
  constructor(readonly errors: readonly GraphQLErrorLike[]) {
    super(errors.map((e) => e.message).join("; "));
    this.name = "DialogqlError";
    this.code = errorCode(errors);
  }
}

export function errorCode(errors: readonly GraphQLErrorLike[] | undefined): string | undefined {
  const code = errors?.[0]?.extensions?.["code"];
  return typeof code === "string" ? code : undefined;
}

/** The data of a result, or a DialogqlError for its GraphQL errors. */
export function dataOf<TData>(result: ExecutionResult<TData>): TData {
  if (result.errors?.length) throw new DialogqlError(result.errors);
  if (result.data == null) throw new Error("the server sent a result without data or errors");
  return result.data;
}
