// An event stream's messages written in one turn of the event loop leave in one system call
// (src/connections/coalesced-writes.ts), not one each: with a hundred SSE subscribers of a busy
// dialog, those calls were a quarter of an instance's time in issue 29's soak.
import { once } from "node:events";
import { createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, expect, it } from "vitest";
import { coalesceWrites, holdUntilTurnEnds, isHeldThisTurn } from "../src/connections/coalesced-writes.js";

const servers: ReturnType<typeof createServer>[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** Writes three messages a tick apart (as a subscriber's chain of promises does); counts the socket's writes. */
async function socketWrites(coalesce: boolean) {
  const server = createServer();
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const served = once(server, "request") as Promise<[unknown, ServerResponse]>;
  const client = request({ port, host: "127.0.0.1", path: "/" });
  client.end();
  const [, response] = await served;
  response.writeHead(200, { "content-type": "text/event-stream" });
  response.flushHeaders();
  if (coalesce) coalesceWrites(response);
  const socket = response.socket as Socket & { _writeGeneric: (...args: unknown[]) => unknown };
  let writes = 0;
  const writeGeneric = socket._writeGeneric;
  socket._writeGeneric = function (...args: unknown[]) {
    writes++;
    return writeGeneric.apply(this, args);
  };
  const [clientResponse] = (await once(client, "response")) as [NodeJS.ReadableStream];
  let received = "";
  clientResponse.on("data", (chunk: Buffer) => (received += chunk.toString()));
  for (const n of [1, 2, 3]) {
    response.write(`data: ${n}\n\n`);
    await new Promise((resolve) => process.nextTick(resolve));
  }
  await new Promise((resolve) => setImmediate(resolve));
  response.end();
  await once(clientResponse, "end");
  expect(received).toBe("data: 1\n\ndata: 2\n\ndata: 3\n\n");
  return writes;
}

it("an event stream's messages of one turn of the loop leave in one write", async () => {
  expect(await socketWrites(false)).toBeGreaterThanOrEqual(3);
  // The three messages in one write, and the end in another.
  expect(await socketWrites(true)).toBeLessThanOrEqual(2);
});

it("a socket that fails as its held writes are released does not keep the others held", async () => {
  const released: string[] = [];
  let destroyedWith: Error | undefined;
  const socket = (name: string, uncork: () => void) => ({
    name,
    cork: () => undefined,
    uncork,
    destroy: (e?: Error) => void (destroyedWith = e),
  });
  const broken = socket("broken", () => {
    throw new Error("the socket broke");
  });
  const others = ["a", "b"].map((name) => socket(name, () => released.push(name)));
  for (const each of [others[0]!, broken, others[1]!]) holdUntilTurnEnds(each);
  await new Promise((resolve) => setImmediate(resolve));
  expect(released).toEqual(["a", "b"]);
  expect(destroyedWith?.message).toBe("the socket broke");
  expect([broken, ...others].some(isHeldThisTurn)).toBe(false);
});
