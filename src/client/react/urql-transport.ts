// watchHistory's Transport over an urql Client, so useDialogHistory goes through the app's urql
// exchanges (auth, logging, the graphql-ws subscription exchange) like every other operation.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { getOperationAST } from "graphql";
import type { Client, CombinedError, OperationResult } from "urql";
import { onEnd, pipe, subscribe } from "wonka";
import type { ExecutionResult, Transport } from "../transport.js";

export function urqlTransport(client: Client): Transport {
  return {
    async execute<TData, TVariables>(document: TypedDocumentNode<TData, TVariables>, variables: TVariables) {
      const vars = variables as Record<string, unknown>;
      const source =
        getOperationAST(document)?.operation === "mutation"
          ? client.mutation(document, vars)
          : client.query(document, vars, { requestPolicy: "network-only" });
      const result = await source.toPromise();
      if (result.error?.networkError) throw result.error.networkError;
      return toExecutionResult(result);
    },

    subscribe(document, variables, sink) {
      let ended = false;
      const { unsubscribe } = pipe(
        client.subscription(document, variables as Record<string, unknown>),
        onEnd(() => {
          if (!ended) sink.complete();
        }),
        subscribe((result) => {
          if (result.error?.networkError) sink.error(result.error.networkError);
          else sink.next(toExecutionResult(result));
        }),
      );
      return () => {
        ended = true;
        unsubscribe();
      };
    },
  };
}

function toExecutionResult<TData>(result: OperationResult<TData>): ExecutionResult<TData> {
  return { data: result.data, errors: graphQLErrors(result.error) };
}

function graphQLErrors(error: CombinedError | undefined) {
  if (!error?.graphQLErrors.length) return undefined;
  return error.graphQLErrors.map(({ message, path, extensions }) => ({ message, path, extensions }));
}
