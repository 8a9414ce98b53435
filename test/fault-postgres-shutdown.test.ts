// Issue 29, finding 10: PostgreSQL shutting down (a fast shutdown, as `pg_ctl stop -m fast` or a
// restart does: open connections get FATAL 57P01, new ones FATAL 57P03 until it is gone) is the
// retryable UNAVAILABLE on every door — GraphQL, REST and /v1 — never INTERNAL_SERVER_ERROR or a
// 500, and the server recovers by itself once the database is back. The database is the test's
// own, reached through a proxy that plays the shutdown with PostgreSQL's own error messages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../src/server/http-server.js";
import type { Store } from "../src/store/store.js";
import { testConfig } from "./support/database.js";
import { openProxiedStore, type TcpProxy } from "./support/proxied-store.js";
import { until } from "./support/until.js";

const runs = Boolean(process.env.TEST_DATABASE_URL);
const title = runs ? "PostgreSQL shutting down" : "PostgreSQL shutting down (skipped: need TEST_DATABASE_URL)";

const WRITE = `mutation($input: CreateResponseInput!) {
  createResponse(input: $input) { __typename ... on Response { id dialog { id } } ... on Error { code } }
}`;

describe.runIf(runs)(title, () => {
  let proxied: Store;
  let proxy: TcpProxy;
  beforeAll(async () => {
    ({ store: proxied, proxy } = await openProxiedStore(500));
  });
  afterAll(() => proxied?.close());

  it("every door answers UNAVAILABLE (503) while it shuts down, and works again after", async () => {
    const server = await startServer({ store: proxied, config: testConfig, port: 0, redisUrl: null });
    try {
      const graphql = async (query: string, variables?: object) => {
        const response = await fetch(`${server.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await response.json()) as {
          data?: { createResponse?: { __typename: string; id?: string; dialog?: { id: string }; code?: string } };
          errors?: { extensions?: { code?: string } }[];
        };
        return { status: response.status, body };
      };
      const first = await graphql(WRITE, { input: { input: [{ human: { content: "before" } }] } });
      const { id: responseId, dialog } = first.body.data!.createResponse!;
      const dialogId = dialog!.id;

      // Each door, once: what it answered, as "<status> <code>" ("200 ok" when it worked).
      const doors = {
        read: async () => {
          const { status, body } = await graphql(
            `
              query ($d: ID!) {
                dialog(id: $d) {
                  id
                  head {
                    id
                  }
                  eventCount
                }
              }
            `,
            {
              d: dialogId,
            },
          );
          return `${status} ${body.errors?.map((e) => e.extensions?.code).join(",") ?? "ok"}`;
        },
        write: async () => {
          const { status, body } = await graphql(WRITE, { input: { dialogId, input: [{ human: { content: "w" } }] } });
          const written = body.data?.createResponse;
          const code = body.errors?.map((e) => e.extensions?.code).join(",") ?? written?.code ?? "ok";
          return `${status} ${code}`;
        },
        rest: async () => {
          const response = await fetch(`${server.url}/api/dialogs/${dialogId}/history`);
          await response.arrayBuffer();
          return `${response.status} ${response.ok ? "ok" : "error"}`;
        },
        v1: async () => {
          const response = await fetch(`${server.url}/v1/responses/${responseId}`);
          const body = (await response.json()) as { error?: { code?: string } };
          return `${response.status} ${body.error?.code ?? "ok"}`;
        },
      };
      const everyDoor = () =>
        Promise.all(Object.entries(doors).map(async ([name, door]) => `${name}: ${await door()}`));
      expect(await everyDoor()).toEqual(["read: 200 ok", "write: 200 ok", "rest: 200 ok", "v1: 200 ok"]);

      // Load through the shutdown: calls in flight when the connections are terminated, and calls
      // that need a new connection while the database refuses them.
      const seen = new Set<string>();
      let loading = true;
      const load = Promise.all(
        Array.from({ length: 4 }, async () => {
          while (loading) for (const answer of await everyDoor()) seen.add(answer);
        }),
      );
      await until(() => seen.size > 0, "the load to run");
      proxy.shutDown();
      await until(() => [...seen].some((answer) => answer.includes("503")), "a call that met the shutdown");
      for (const answer of await everyDoor()) seen.add(answer);
      loading = false;
      await load;

      // GraphQL: UNAVAILABLE (with 200 when other fields of the answer have data); REST and /v1: 503.
      const retryable = /^(read|write): (200|503) UNAVAILABLE$|^rest: 503 error$|^v1: 503 unavailable$/;
      const failures = [...seen].filter((answer) => !answer.endsWith(" ok"));
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.filter((answer) => !retryable.test(answer))).toEqual([]);

      // The database is back: every door works again without a restart.
      await proxy.start();
      await until(
        async () => (await everyDoor()).every((answer) => answer.endsWith(": 200 ok")),
        "every door to work again",
      );
    } finally {
      await server.close();
    }
  });
});
