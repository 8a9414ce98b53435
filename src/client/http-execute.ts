// Queries and mutations over plain HTTP POST, the way Yoga serves them: fetch is all it needs, in
// Node 20 and in browsers.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { getOperationAST, print } from "graphql";
import type { ExecutionResult } from "./transport.js";

export interface HttpOptions {
  /** The GraphQL endpoint, e.g. http://localhost:4000/graphql. */
  url: string;
  fetch?: typeof fetch;
  /** Sent with every request; a function is called for each one. */
  headers?: Record<string, string> | (() => Record<string, string>);
}

// Generated documents are module constants, so printing each once is enough.
const printed = new WeakMap<object, { query: string; operationName?: string }>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any document, whatever its result and variables
export function printDocument(document: TypedDocumentNode<any, any>) {
  let request = printed.get(document);
  if (!request) {
    const operationName = getOperationAST(document)?.name?.value;
    request = operationName ? { query: print(document), operationName } : { query: print(document) };
    printed.set(document, request);
  }
  return request;
}

export function httpExecute(options: HttpOptions) {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  return async <TData, TVariables>(
    document: TypedDocumentNode<TData, TVariables>,
    variables: TVariables,
  ): Promise<ExecutionResult<TData>> => {
    const response = await fetchImpl(options.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...(typeof options.headers === "function" ? options.headers() : options.headers),
      },
      body: JSON.stringify({ ...printDocument(document), variables }),
    });
    const isJson = response.headers.get("content-type")?.includes("json");
    if (!isJson) throw new Error(`${options.url} answered HTTP ${response.status} without a GraphQL result`);
    return (await response.json()) as ExecutionResult<TData>;
  };
}
