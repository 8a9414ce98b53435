// Sends operations through the app's own fetch handler: the full Yoga pipeline, no socket.
// Documents made with the generated `graphql()` are typed end to end; a plain string (kept for
// deliberately invalid or hostile documents) gives `unknown` data, for the test to narrow.
// `app` is built from this file's store and the test configuration; `testApp({...})` builds one
// with other options (limits, auth, a store with other settings) in the same process.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { type App, type AppOptions, buildApp } from "../../src/server/app.js";
import { store, testConfig } from "./database.js";
import { atEveryFileEnd } from "./file-scope.js";

const apps: App[] = [];
export const testApp = (options: Partial<AppOptions> = {}) => {
  const built = buildApp({ store, config: testConfig, ...options });
  apps.push(built);
  return built;
};

/** This file's app: a new one for every file, so no cache of an earlier file's keys or dialogs is left. */
export let app = testApp();
atEveryFileEnd(() => {
  // The file's apps stop polling the database (a later file counts its statements).
  for (const finished of apps.splice(0)) finished.stop();
  app = testApp();
});

export interface GraphQLResult<T = unknown> {
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

export function execute<T, V>(document: TypedDocumentNode<T, V>, variables?: V, on?: App): Promise<GraphQLResult<T>>;
export function execute(document: string, variables?: Record<string, unknown>, on?: App): Promise<GraphQLResult>;
export async function execute<T, V>(
  document: TypedDocumentNode<T, V> | string,
  variables?: V,
  on: App = app,
): Promise<GraphQLResult<T>> {
  const query = typeof document === "string" ? document : print(document);
  const response = await on.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLResult<T>;
}

/** Like execute, but fails the test on any GraphQL error. */
export function executeOk<T, V>(document: TypedDocumentNode<T, V>, variables?: V, on?: App): Promise<T>;
export function executeOk(document: string, variables?: Record<string, unknown>, on?: App): Promise<unknown>;
export async function executeOk<T, V>(
  document: TypedDocumentNode<T, V> | string,
  variables?: V,
  on: App = app,
): Promise<T> {
  const result = (await execute(document as TypedDocumentNode<T, V>, variables, on)) as GraphQLResult<T>;
  if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data!;
}

/** GETs a REST path; `Body` is the shape the test declares it asserts on. */
export const restGet = async <Body = unknown>(path: string) => {
  const response = await app.fetch(`http://localhost${path}`);
  return { status: response.status, body: (await response.json()) as Body };
};
