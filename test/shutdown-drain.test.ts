// The drain on shutdown, step by step and without a timing guess (issue 29, finding 10): a turn
// that ends within the turns time is stored as it ended; one still running then is stopped and
// stored INCOMPLETE with its text so far, and the non-streamed /v1 request waiting for it is
// answered with that response (its id, what was kept), not cut off; a request sent on a kept-alive
// connection after the drain began is answered 503 SHUTTING_DOWN (connection: close), never reset;
// and close() resolves once every connection has closed, an idle one by its own keep-alive timeout.
// The deadlines are the server's configured ones; the test waits on events only.
import { Agent, request as httpRequest } from "node:http";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { startGeneratingServer } from "./support/generating-server.js";
import { until } from "./support/until.js";
import { scriptHeldText } from "./support/upstream-stand-in.js";

const TEXT = "Typed before the shutdown, and the rest never comes.";

/** One request on `agent`'s connection: status, the connection header, the body and the socket. */
function send(url: string, agent: Agent, key: string, path: string, body?: string) {
  return new Promise<{ status: number; connection?: string; body: string; socket: Socket; reused: boolean }>(
    (resolve, reject) => {
      const req = httpRequest(
        `${url}${path}`,
        {
          agent,
          method: body ? "POST" : "GET",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () =>
            resolve({
              status: response.statusCode!,
              connection: response.headers.connection,
              body: text,
              socket: req.socket!,
              reused: req.reusedSocket,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    },
  );
}

describe("the drain on shutdown", () => {
  it("stops a turn still running at the turns time, keeping its text, and answers its request with it", async () => {
    const g = await startGeneratingServer({}, "tenant-a", { drainMs: 20_000, turnsMs: 300 });
    const held = scriptHeldText(g.upstream, TEXT);
    const answer = g.openai.responses.create({ model: "stand-in-1", input: "Go on." });
    await until(async () => {
      const row = await prisma.response.findFirst({ where: { status: "IN_PROGRESS" }, select: { id: true } });
      return Boolean(row && (await g.server.writes.textOf(row.id))?.text === held.typed);
    }, "the text typed");
    const upstreamCall = g.upstream.requests.at(-1)!;

    const closed = g.server.close();
    const response = await answer;
    await upstreamCall.closed; // the upstream call was stopped, not left running
    held.open();
    await closed;

    expect(response).toMatchObject({ status: "incomplete", incomplete_details: { reason: "server_shutdown" } });
    expect(response.output_text).toBe(held.typed);
    const stored = await prisma.response.findUniqueOrThrow({
      where: { id: response.id },
      include: { events: { where: { phase: "OUTPUT" } } },
    });
    expect(stored.status).toBe("INCOMPLETE");
    expect(stored.events.map((event) => event.content)).toEqual([held.typed]);
  });

  it("lets a turn that ends within the turns time end as it does", async () => {
    const g = await startGeneratingServer({}, "tenant-a", { drainMs: 20_000, turnsMs: 20_000 });
    const held = scriptHeldText(g.upstream, TEXT);
    const started = await g.openai.responses.create({ model: "stand-in-1", input: "Go on.", background: true });
    await until(async () => (await g.server.writes.textOf(started.id))?.text === held.typed, "the text typed");

    const closed = g.server.close();
    held.open();
    await closed;
    const stored = await prisma.response.findUniqueOrThrow({ where: { id: started.id } });
    expect(stored.status).toBe("COMPLETED");
  });

  it("answers a request on a kept-alive connection 503 once the drain began, and closes that connection itself", async () => {
    const g = await startGeneratingServer({}, "tenant-a", { drainMs: 6_000, turnsMs: 6_000 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const query = JSON.stringify({ query: "{ __typename }" });
    const freed = new Promise((resolve) => agent.once("free", resolve));
    const before = await send(g.server.url, agent, g.key, "/graphql", query);
    await freed; // the connection is kept alive, idle in the agent
    expect(before.status).toBe(200);
    const socketClosed = new Promise((resolve) => before.socket.once("close", resolve));

    const closed = g.server.close();
    const during = await send(g.server.url, agent, g.key, "/graphql", query);
    expect(during.reused).toBe(true);
    expect(during.status).toBe(503);
    expect(during.connection).toBe("close");
    expect(JSON.parse(during.body)).toMatchObject({ errors: [{ extensions: { code: "SHUTTING_DOWN" } }] });
    await socketClosed;
    await closed;
    agent.destroy();
  });
});
