// Issue 29, finding 8: an upstream's error text never reaches a tenant. A provider that echoes the
// credentials it was sent, or an upstream that cannot be reached, gives the tenant a fixed message
// and the code `upstream_error` — in the 502, in the stream's `response.failed`, and in the stored
// `response.error` — while the detail goes to the log with the secrets redacted.
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "../src/logger.js";
import { redactSecrets } from "../src/generation/upstream-errors.js";
import { prisma } from "./support/database.js";
import { startGeneratingServer } from "./support/generating-server.js";
import { freePort } from "./support/redis-server.js";

afterEach(() => vi.restoreAllMocks());

const PROVIDER_KEY = "sk-live-0123456789abcdefXYZ";

/** Everything a tenant can read about a failed turn: the error answer and the stored row's error. */
async function tenantView(error: { status?: number; message: string }) {
  const id = /resp_[0-9A-Z]+/.exec(error.message)![0];
  const row = await prisma.response.findUniqueOrThrow({ where: { id }, select: { status: true, error: true } });
  return { id, text: `${error.message} ${JSON.stringify(row.error)}`, row };
}

describe("upstream errors, as a tenant sees them", () => {
  it("a provider echoing the key it was sent: the 502 and the stored error say neither the key nor its words", async () => {
    const g = await startGeneratingServer({ OPENAI_API_KEY: PROVIDER_KEY });
    const warned = vi.spyOn(logger, "warn");
    g.upstream.script({
      output: [],
      httpError: { status: 401, message: `Incorrect API key provided: Bearer ${PROVIDER_KEY}. Find your key at …` },
    });
    const error = await g.openai.responses.create({ model: "stand-in-1", input: "hi" }).catch((e) => e);
    expect(error).toMatchObject({ status: 502, code: "upstream_error" });
    expect(g.upstream.requests.at(-1)!.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);

    const { text, row } = await tenantView(error);
    expect(row).toEqual({
      status: "FAILED",
      error: {
        code: "upstream_error",
        message:
          "The model provider refused the server's credentials (HTTP 401); an operator must check its configuration.",
      },
    });
    expect(text).not.toContain(PROVIDER_KEY.slice(3));
    expect(text).not.toContain("Incorrect API key");
    // The operator reads the detail, the key redacted.
    const line = warned.mock.calls.map((call) => String(call[0])).find((l) => l.includes("Incorrect API key"));
    expect(line).toBeDefined();
    expect(line).toContain("Bearer [redacted]");
    expect(line).not.toContain(PROVIDER_KEY.slice(3));
  });

  it("an unreachable upstream: neither its address nor the socket error reaches the tenant, streamed or not", async () => {
    const port = await freePort(); // nothing listens there
    const g = await startGeneratingServer({ OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` });
    const error = await g.openai.responses.create({ model: "stand-in-1", input: "hi" }).catch((e) => e);
    expect(error).toMatchObject({ status: 502, code: "upstream_error" });
    const { text, row } = await tenantView(error);
    expect(row.error).toEqual({
      code: "upstream_error",
      message: "The model provider could not be reached; try again later.",
    });
    expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|fetch failed/);
    expect(text).not.toContain(String(port));

    const events: ResponseStreamEvent[] = [];
    for await (const event of await g.openai.responses.create({ model: "stand-in-1", input: "hi", stream: true }))
      events.push(event);
    const failed = events.find((event) => event.type === "response.failed");
    expect(failed).toMatchObject({
      response: {
        status: "failed",
        error: { code: "upstream_error", message: (row.error as { message: string }).message },
      },
    });
    expect(JSON.stringify(events)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  });
});

describe("upstream errors, as the operator reads them", () => {
  it("a failure that outlasts the retries is logged at warn with the upstream's last HTTP status", async () => {
    // As a server runs by default: retried (UPSTREAM_MAX_RETRIES), so the AI SDK wraps the error.
    const g = await startGeneratingServer({ UPSTREAM_MAX_RETRIES: 1 });
    const warned = vi.spyOn(logger, "warn");
    const fire = { output: [], httpError: { status: 503, message: "The upstream is overloaded" } };
    g.upstream.script(fire, fire);
    const error = await g.openai.responses.create({ model: "stand-in-1", input: "hi" }).catch((e) => e);
    expect(error).toMatchObject({ status: 502, code: "upstream_error" });
    expect(g.upstream.requests).toHaveLength(2);
    const { id } = await tenantView(error);
    const call = warned.mock.calls.find((c) => String(c[0]).includes(id));
    expect(call, "a warn line about the turn").toBeDefined();
    // Before, the line said only "AI_RetryError: Failed after 2 attempts. Last error: …": no status.
    expect(String(call![0])).toContain("the model upstream failed (HTTP 503)");
    expect(String(call![0])).toContain("The upstream is overloaded");
    expect(call![1]).toEqual({ responseId: id, upstreamStatus: 503 });
  });
});

describe("redactSecrets", () => {
  it("hides bearer tokens, provider and dialogql keys, key parameters and URL passwords", () => {
    expect(
      redactSecrets(
        "Bearer abc.def sk-ant-api03-XXXXXXXX dq_abcdefghijk https://x/v1?api_key=s3cret&y=1 postgres://user:pw@db/x",
      ),
    ).toBe(
      "Bearer [redacted] sk-[redacted] dq_[redacted] https://x/v1?api_key=[redacted]&y=1 postgres://user:[redacted]@db/x",
    );
  });
});
