// JSON values as they arrive (GraphQL's JSON scalar, a request body, an imported message): unknown
// until checked.
export type Json = unknown;

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
