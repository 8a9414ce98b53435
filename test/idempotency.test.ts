// idempotencyKey: a retry returns the response the first attempt stored; reusing a key for a
// different request is a conflict.
import { describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { createResponse, rowCounts } from "./support/dialogs.js";

const request = (key: string) => ({
  idempotencyKey: key,
  model: "gpt-4o",
  input: [{ human: { content: "Book a table for two" } }],
  output: [{ ai: { content: "Done." } }],
});

describe("idempotent createResponse", () => {
  it("returns the same response for a retry with the same key and input", async () => {
    const first = await createResponse(request("key-1"));
    const before = await rowCounts();
    const retry = await createResponse(request("key-1"));
    expect(retry.__typename).toBe("Response");
    expect(retry.id).toBe(first.id);
    expect(await rowCounts()).toEqual(before);
  });

  it("creates exactly one response when retries race", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => createResponse(request("key-race"))));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await prisma.response.count({ where: { idempotencyKey: "default/key-race" } })).toBe(1);
  });

  it("is a ConflictError when the key is reused for a different request", async () => {
    await createResponse(request("key-2"));
    const before = await rowCounts();
    const reuse = await createResponse({ ...request("key-2"), input: [{ human: { content: "Something else" } }] });
    expect(reuse).toMatchObject({ __typename: "ConflictError", code: "CONFLICT" });
    expect(reuse.message).toMatch(/key-2/);
    expect(await rowCounts()).toEqual(before);
  });
});
