// A client sends createResponse with an idempotency key and loses the connection before the answer
// arrives (at any moment: before the server read the request, while it was writing, after the
// commit). It cannot know whether the write happened, so it retries with the same key; whatever
// the timing, exactly one response is stored and the retry answers with it.
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { writer } from "./support/dialogs.js";
import { httpExecutor, startTestServer } from "./support/live.js";

const CREATE = `mutation($input: CreateResponseInput!) {
  createResponse(input: $input) { __typename ... on Response { id } ... on Error { code message } } }`;

/** Sends the request and drops the connection `afterMs` later, whatever has happened by then. */
function sendAndDrop(url: string, body: string, afterMs: number) {
  return new Promise<void>((resolve) => {
    const req = request(`${url}/graphql`, { method: "POST", headers: { "content-type": "application/json" } });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.end(body);
    setTimeout(() => req.destroy(), afterMs);
  });
}

describe("idempotent createResponse across a dropped connection", () => {
  it("stores exactly one response per key, whenever the connection drops", async () => {
    const server = await startTestServer();
    const run = httpExecutor(server);
    const first = await writer(run).createResponse({ input: [{ human: { content: "start" } }] });
    const dialogId = first.dialog.id;

    for (let i = 0; i < 20; i++) {
      const key = `dropped-${i}`;
      const input = { dialogId, idempotencyKey: key, input: [{ human: { content: `turn ${i}` } }] };
      await sendAndDrop(server.url, JSON.stringify({ query: CREATE, variables: { input } }), i % 10);
      const retried = (await run(CREATE, { input })).createResponse;
      expect(retried.__typename).toBe("Response");
      // Let a first attempt that was still running finish, then count.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const stored = await prisma.response.findMany({
        where: { idempotencyKey: `default/${key}` },
        select: { id: true },
      });
      expect(stored).toEqual([{ id: retried.id }]);
    }
    const events = await prisma.event.findMany({ where: { dialogId }, orderBy: { seq: "asc" }, select: { seq: true } });
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });
});
