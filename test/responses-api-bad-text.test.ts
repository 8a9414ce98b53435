// Issue 29, finding 10 (in part): text the database cannot store, or bytes that are not UTF-8, sent
// to /v1/responses are a 400 naming the parameter, and nothing is stored — not a 500, and never
// U+FFFD stored in place of what the client sent.
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { type GeneratingServer, startGeneratingServer } from "./support/generating-server.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer({}, "bad-text");
});

const post = (body: string | Uint8Array<ArrayBuffer>) =>
  fetch(`${g.server.url}/v1/responses`, {
    method: "POST",
    headers: { authorization: `Bearer ${g.key}`, "content-type": "application/json" },
    body,
  });

describe("/v1/responses refuses text it cannot store", () => {
  it.each([
    ["input", "a NUL", { model: "stand-in-1", input: "before\u0000after" }],
    ["model", "a NUL", { model: "stand-in\u0000-1", input: "hi" }],
    [
      "input",
      "an unpaired surrogate",
      { model: "stand-in-1", input: [{ role: "user", content: "half a pair \ud800" }] },
    ],
  ])("%s with %s is a 400 naming it", async (param, _what, body) => {
    const before = await prisma.response.count();
    const response = await post(JSON.stringify(body));
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { param: string; type: string; message: string } };
    expect(answer.error).toMatchObject({
      type: "invalid_request_error",
      message: expect.stringContaining("cannot be stored"),
    });
    expect(answer.error.param.startsWith(param)).toBe(true);
    expect(await prisma.response.count()).toBe(before);
  });

  it("a body that is not UTF-8 is a 400, and nothing is stored", async () => {
    const before = await prisma.response.count();
    // "café" with its "é" as Latin-1: a lone 0xE9 byte, which is not UTF-8.
    const latin1 = Buffer.concat([
      Buffer.from('{"model":"stand-in-1","input":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    const response = await post(latin1);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: "The request body is not valid UTF-8." } });
    expect(await prisma.response.count()).toBe(before);
  });
});
