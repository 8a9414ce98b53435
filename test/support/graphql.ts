// Sends operations through the app's own fetch handler: the full Yoga pipeline, no socket.
// Documents made with the generated `graphql()` are typed end to end; a plain string (kept for
// deliberately invalid or hostile documents) gives `unknown` data, for the test to narrow.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { buildApp } from "../../src/server/app.js";

export const app = buildApp();

export interface GraphQLResult<T = unknown> {
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

export function execute<T, V>(document: TypedDocumentNode<T, V>, variables?: V): Promise<GraphQLResult<T>>;
export function execute(document: string, variables?: Record<string, unknown>): Promise<GraphQLResult>;
export async function execute<T, V>(
  document: TypedDocumentNode<T, V> | string,
  variables?: V,
): Promise<GraphQLResult<T>> {
  const query = typeof document === "string" ? document : print(document);
  const response = await app.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLResult<T>;
}

/** Like execute, but fails the test on any GraphQL error. */
export function executeOk<T, V>(document: TypedDocumentNode<T, V>, variables?: V): Promise<T>;
export function executeOk(document: string, variables?: Record<string, unknown>): Promise<unknown>;
export async function executeOk<T, V>(document: TypedDocumentNode<T, V> | string, variables?: V): Promise<T> {
  const result = (await execute(document as TypedDocumentNode<T, V>, variables)) as GraphQLResult<T>;
  if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data!;
}

/** GETs a REST path; `Body` is the shape the test declares it asserts on. */
export const restGet = async <Body = unknown>(path: string) => {
  const response = await app.fetch(`http://localhost${path}`);
  return { status: response.status, body: (await response.json()) as Body };
};
