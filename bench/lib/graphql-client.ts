// A GraphQL request over HTTP for the bench's clients. No import of the server or the database
// here: load generators in child processes use it, and opening the scenario's embedded database
// a second time from another process would wait forever on its lock.
export async function graphql(url: string, query: string, variables?: Record<string, unknown>) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: any; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}
