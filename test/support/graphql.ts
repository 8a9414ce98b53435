// Sends operations through the app's own fetch handler: the full Yoga pipeline, no socket.
import { buildApp } from "../../src/server/app.js";

export const app = buildApp();

export interface GraphQLResult<T = any> {
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

export async function execute<T = any>(query: string, variables?: Record<string, unknown>): Promise<GraphQLResult<T>> {
  const response = await app.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLResult<T>;
}

/** Like execute, but fails the test on any GraphQL error. */
export async function executeOk<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await execute<T>(query, variables);
  if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data!;
}

export const restGet = async (path: string) => {
  const response = await app.fetch(`http://localhost${path}`);
  return { status: response.status, body: (await response.json()) as any };
};
