// SIGTERM under load (issue 13, finding 3). Writers keep writing through a server process while it
// is told to stop: every write is either acknowledged and then found stored after a restart, or
// refused before it started (503 SHUTTING_DOWN, or the connection refused) and not stored; none is
// reset mid-way. An SSE subscriber's stream ends with `complete`, a WebSocket closes with 1001, and
// the process exits within the drain time.
import type { ResultOf } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { graphql } from "../src/client/generated/index.js";
import type { GraphQLResult } from "./support/graphql.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { freePort, startChildServer } from "./support/child-server.js";

const DRAIN_MS = 3_000;
// Embedded: a data directory of the test's own. On PostgreSQL: this file's database.
const databaseEnv = () =>
  process.env.TEST_DATABASE_URL
    ? { DATABASE_URL: process.env.DATABASE_URL }
    : { DATABASE_URL: "", DATA_DIR: mkdtempSync(path.join(tmpdir(), "dialogql-shutdown-")) };

const CREATE = graphql(`
  mutation GracefulShutdownWrite($input: CreateResponseInput!) {
    createResponse(input: $input) {
      __typename
      ... on Response {
        dialog {
          id
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

type Outcome = "acknowledged" | "refused" | `broken: ${string}`;

async function write(url: string, input: Record<string, unknown>): Promise<{ outcome: Outcome; dialogId?: string }> {
  let response: Response;
  try {
    response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: print(CREATE), variables: { input } }),
    });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    // Refused at connect: the request never reached the server.
    return { outcome: code === "ECONNREFUSED" ? "refused" : `broken: ${code ?? (error as Error).message}` };
  }
  const body = (await response.json().catch(() => null)) as GraphQLResult<ResultOf<typeof CREATE>> | null;
  if (response.status === 503 && body?.errors?.[0]?.extensions?.code === "SHUTTING_DOWN") return { outcome: "refused" };
  const written = body?.data?.createResponse;
  if (written?.__typename === "Response") return { outcome: "acknowledged", dialogId: written.dialog.id };
  return { outcome: `broken: ${response.status} ${JSON.stringify(body).slice(0, 200)}` };
}

describe("graceful shutdown under load", () => {
  it("acknowledges and stores every write in flight, refuses the rest before they start, completes streams", async () => {
    const port = await freePort();
    const env = { ...databaseEnv(), REDIS_URL: "", SHUTDOWN_DRAIN_MS: String(DRAIN_MS) };
    const server = await startChildServer(port, env);
    const WRITERS = 4;
    const dialogs: string[] = [];
    for (let w = 0; w < WRITERS; w++)
      dialogs.push((await write(server.url, { input: [{ human: { content: `w${w}-start` } }] })).dialogId!);

    // An SSE subscriber and a WebSocket, to see how they are ended.
    const sse = fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        query: `subscription($d: ID!) { historyDelta(dialogId: $d) { seq } }`,
        variables: { d: dialogs[0] },
      }),
    }).then((response) => response.text());
    const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
    const wsClosed = new Promise<number>((resolve) => socket.once("close", resolve));
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ type: "connection_init" }));

    const acknowledged: string[][] = dialogs.map(() => []);
    const outcomes: Outcome[] = [];
    let stopAfter = Infinity;
    const writers = dialogs.map(async (dialogId, w) => {
      for (let i = 0; ; i++) {
        const content = `w${w}-${i}`;
        const { outcome } = await write(server.url, {
          dialogId,
          input: [{ human: { content } }],
          output: [{ ai: { content: "x".repeat(20_000) } }],
        });
        outcomes.push(outcome);
        if (outcome === "acknowledged") acknowledged[w]!.push(content);
        else return;
        if (outcomes.length >= stopAfter) return;
      }
    });
    // Stop once writes are flowing; writers continue until they are refused.
    while (outcomes.length < 20) await new Promise((resolve) => setTimeout(resolve, 10));
    const stopping = performance.now();
    await server.stop();
    const stoppedInMs = performance.now() - stopping;
    stopAfter = outcomes.length; // a writer still looping is refused at connect from now on
    await Promise.all(writers);

    expect(outcomes.filter((outcome) => outcome.startsWith("broken"))).toEqual([]);
    expect(outcomes.filter((outcome) => outcome === "refused").length).toBe(WRITERS);
    expect(stoppedInMs).toBeLessThan(DRAIN_MS + 4_000);
    expect(await sse).toMatch(/event: complete\ndata:\n\n$/);
    expect(await wsClosed).toBe(1001);
    expect(server.output()).not.toMatch(/ECONNRESET|Error:/);

    // After a restart on the same database, exactly the acknowledged writes are stored.
    const again = await startChildServer(port, env);
    try {
      for (const [w, dialogId] of dialogs.entries()) {
        const answer = await fetch(`${again.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            query: `query($d: ID!) { dialog(id: $d) { history(first: 10000, types: [HUMAN]) { edges { node { ... on HumanEvent { content } } } } } }`,
            variables: { d: dialogId },
          }),
        });
        const body = (await answer.json()) as {
          data: { dialog: { history: { edges: { node: { content?: string } }[] } } };
        };
        const stored = body.data.dialog.history.edges.map((edge) => edge.node.content);
        expect(stored).toEqual([`w${w}-start`, ...acknowledged[w]!]);
      }
    } finally {
      await again.stop();
    }
  });
});
