// PostgreSQL fails under a running server (a server process on this test file's own database):
// - its connections are terminated again and again mid-load (pg_terminate_backend, only this
//   server's backends of this database): clients that retry with their idempotency keys end up
//   with every write stored exactly once, and nobody is told anything but UNAVAILABLE;
// - the database goes away entirely (a proxy in front of it stops): calls fail fast with
//   UNAVAILABLE, and the server recovers by itself when it comes back.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { resumingSubscriber } from "./support/resuming-subscriber.js";
import { type ServerProcess, startServerProcess } from "./support/processes.js";
import { startTcpProxy } from "./support/tcp-proxy.js";

const runs = Boolean(process.env.TEST_DATABASE_URL);
const title = runs ? "PostgreSQL faults" : "PostgreSQL faults (skipped: need TEST_DATABASE_URL)";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  data?: any;
  codes: string[];
}

async function call(server: ServerProcess, query: string, variables?: Record<string, unknown>): Promise<Answer> {
  try {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await response.json()) as { data?: any; errors?: { extensions?: { code?: string } }[] };
    return {
      status: response.status,
      data: body.data,
      codes: (body.errors ?? []).map((e) => String(e.extensions?.code)),
    };
  } catch (error) {
    return { status: 0, codes: [`no answer: ${(error as Error).message}`] };
  }
}

const CREATE = `mutation($input: CreateResponseInput!) {
  createResponse(input: $input) { __typename ... on Response { id dialog { id } } ... on Error { code message } } }`;

describe.runIf(runs)(title, () => {
  // Made in beforeAll: this body also runs (to list the skipped tests) when there is no server.
  let databaseUrl: URL;
  let admin: pg.Client;
  beforeAll(async () => {
    databaseUrl = new URL(process.env.DATABASE_URL!);
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: "dialogql-test-admin" });
    await admin.connect();
  });
  afterAll(() => admin?.end());

  it("terminated connections mid-load: every retried write stored exactly once, only UNAVAILABLE errors", async () => {
    const url = new URL(databaseUrl);
    url.searchParams.set("application_name", "dialogql-under-fault");
    const server = await startServerProcess({ DATABASE_URL: url.toString() });
    const CLIENTS = 4;
    const WRITES = 25;
    const dialogs: string[] = [];
    for (let c = 0; c < CLIENTS; c++) {
      const started = await call(server, CREATE, { input: { input: [{ human: { content: "start" } }] } });
      dialogs.push(started.data.createResponse.dialog.id);
    }

    const codesSeen = new Set<string>();
    let retries = 0;
    const clients = dialogs.map(async (dialogId, c) => {
      for (let w = 0; w < WRITES; w++) {
        const input = { dialogId, idempotencyKey: `fault-${c}-${w}`, input: [{ human: { content: `w${w}` } }] };
        // A careful client: retries a failed write with the same key, a bounded number of times.
        for (let attempt = 0; ; attempt++) {
          const answer = await call(server, CREATE, { input });
          if (answer.data?.createResponse?.__typename === "Response") break;
          answer.codes.forEach((code) => codesSeen.add(code));
          if (attempt === 30) throw new Error(`write fault-${c}-${w} never succeeded: ${answer.codes}`);
          retries++;
          await sleep(50);
        }
      }
    });
    let terminating = true;
    let terminated = 0;
    const terminator = (async () => {
      for (let round = 0; terminating && round < 40; round++) {
        await sleep(150);
        const { rows } = await admin.query(
          `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'dialogql-under-fault'`,
        );
        terminated += rows.filter((row) => row.done).length;
      }
    })();
    await Promise.all(clients);
    terminating = false;
    await terminator;

    expect(terminated).toBeGreaterThan(0);
    expect([...codesSeen].filter((code) => code !== "UNAVAILABLE")).toEqual([]);
    // Every write exactly once, and each dialog's chain and seqs intact.
    for (const [c, dialogId] of dialogs.entries()) {
      const stored = await prisma.response.findMany({
        where: { dialogId },
        orderBy: { depth: "asc" },
        select: { idempotencyKey: true, depth: true, previousResponseId: true, id: true },
      });
      expect(stored.map((r) => r.idempotencyKey)).toEqual([
        null,
        ...Array.from({ length: WRITES }, (_, w) => `default/fault-${c}-${w}`),
      ]);
      stored.slice(1).forEach((response, i) => expect(response.previousResponseId).toBe(stored[i]!.id));
      const events = await prisma.event.findMany({
        where: { dialogId },
        orderBy: { seq: "asc" },
        select: { seq: true },
      });
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: WRITES + 1 }, (_, i) => i + 1));
    }
    // It recovered by itself: a plain call works.
    expect((await call(server, "{ dialogs(first: 1) { edges { node { id } } } }")).codes).toEqual([]);
    console.info(`terminated ${terminated} backends; clients retried ${retries} times`);
  });

  it("database down: calls fail fast with UNAVAILABLE, and the server recovers by itself", async () => {
    const proxy = await startTcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    const url = new URL(databaseUrl);
    url.host = `127.0.0.1:${proxy.port}`;
    const server = await startServerProcess({ DATABASE_URL: url.toString() });
    const started = await call(server, CREATE, { input: { input: [{ human: { content: "before" } }] } });
    const dialogId = started.data.createResponse.dialog.id;
    const subscriber = resumingSubscriber(server.url, "sse", dialogId);
    await subscriber.waitFor(1, 10_000);

    await proxy.stop();
    const began = Date.now();
    const read = await call(server, `{ dialog(id: "${dialogId}") { id } }`);
    const write = await call(server, CREATE, { input: { dialogId, input: [{ human: { content: "during" } }] } });
    const rest = await fetch(`${server.url}/api/dialogs/${dialogId}/history`);
    const elapsed = Date.now() - began;
    expect(read.codes).toEqual(["UNAVAILABLE"]);
    expect(write.codes).toEqual(["UNAVAILABLE"]);
    expect(rest.status).toBe(503);
    expect(await rest.json()).toEqual({ detail: expect.stringContaining("unavailable") });
    expect(elapsed).toBeLessThan(5_000);

    await proxy.start();
    // Recovers by itself: no restart, the next calls just work (a few tries while the pool reconnects).
    let after: Answer | undefined;
    for (let i = 0; i < 50; i++) {
      after = await call(server, CREATE, { input: { dialogId, input: [{ human: { content: "after" } }] } });
      if (after.data?.createResponse?.__typename === "Response") break;
      await sleep(100);
    }
    expect(after!.data.createResponse.__typename).toBe("Response");
    // The subscriber, resuming with afterSeq, has everything once.
    await subscriber.waitFor(2, 15_000);
    subscriber.stop();
    expect(subscriber.seqs).toEqual([1, 2]);
  });

  it("database stalled (bytes swallowed, connections open): every call answers UNAVAILABLE within the query timeout", async () => {
    const proxy = await startTcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    const url = new URL(databaseUrl);
    url.host = `127.0.0.1:${proxy.port}`;
    const TIMEOUT_MS = 500;
    const server = await startServerProcess({
      DATABASE_URL: url.toString(),
      DATABASE_QUERY_TIMEOUT_MS: String(TIMEOUT_MS),
      DATABASE_CONNECT_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    const started = await call(server, CREATE, { input: { input: [{ human: { content: "before" } }] } });
    const dialogId = started.data.createResponse.dialog.id;

    proxy.stall();
    // Several calls at once, as a loaded server would have: none may wait longer than a few
    // timeouts (a query, then its transaction's ROLLBACK), with a margin for a loaded machine.
    const BOUND_MS = 4 * TIMEOUT_MS + 2_000;
    const timed = async (query: string, variables?: Record<string, unknown>) => {
      const began = Date.now();
      const answer = await call(server, query, variables);
      return { ...answer, ms: Date.now() - began };
    };
    const answers = await Promise.all([
      timed(`{ dialog(id: "${dialogId}") { id } }`),
      timed(`{ dialogs(first: 5) { edges { node { id } } } }`),
      timed(CREATE, { input: { dialogId, input: [{ human: { content: "during" } }] } }),
      timed(CREATE, { input: { input: [{ human: { content: "new dialog" } }] } }),
    ]);
    for (const answer of answers) {
      expect(answer.codes).toEqual(["UNAVAILABLE"]);
      expect(answer.ms).toBeLessThan(BOUND_MS);
    }

    proxy.unstall();
    let after: Answer | undefined;
    for (let i = 0; i < 50; i++) {
      after = await call(server, CREATE, { input: { dialogId, input: [{ human: { content: "after" } }] } });
      if (after.data?.createResponse?.__typename === "Response") break;
      await sleep(100);
    }
    expect(after!.data.createResponse.__typename).toBe("Response");
    // Nothing the stalled calls tried was stored: the dialog holds "before" and "after" only.
    const events = await prisma.event.findMany({ where: { dialogId }, orderBy: { seq: "asc" }, select: { seq: true } });
    expect(events.map((e) => e.seq)).toEqual([1, 2]);
  });
});
