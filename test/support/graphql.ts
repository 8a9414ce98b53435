// Sends operations through the app's own fetch handler: the full Yoga pipeline, no socket.
// Documents made with the generated `graphql()` are typed end to end; plain strings give `any`.
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

export interface GraphQLResult<T = any> {
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

type Document<T, V> = TypedDocumentNode<T, V> | string;

export async function execute<T = any, V = Record<string, unknown>>(
  document: Document<T, V>,
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
export async function executeOk<T = any, V = Record<string, unknown>>(
  document: Document<T, V>,
  variables?: V,
  on: App = app,
): Promise<T> {
  const result = await execute<T, V>(document, variables, on);
  if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data!;
}

export const restGet = async (path: string) => {
  const response = await app.fetch(`http://localhost${path}`);
  return { status: response.status, body: (await response.json()) as any };
};
