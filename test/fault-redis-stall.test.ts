// Redis stops answering without closing its connections (SIGSTOP, as a network partition looks;
// issue 13, finding 2). Every request keeps being answered within a bound set by
// REDIS_COMMAND_TIMEOUT_MS (300 ms here): rate limits are counted in this process meanwhile, a
// write is delivered to this instance's subscribers, and a new subscription starts. When Redis
// answers again, everything goes through it again.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { graphql } from "../src/client/generated/index.js";
import type { GraphQLResult } from "./support/graphql.js";
import { withField } from "./support/narrow.js";
import { afterAll, describe, expect, it } from "vitest";
import { configWith, store } from "./support/database.js";
import { startServer } from "../src/server/http-server.js";
import { startOwnRedis } from "./support/redis-server.js";
import { tenantKey, wsAs } from "./support/tenants.js";

const COMMAND_TIMEOUT_MS = 300;
// The longest any request may take while Redis is stalled: a command timeout, plus a generous
// margin for a loaded 2-core machine.
const BOUND_MS = COMMAND_TIMEOUT_MS + 1_700;

const CREATE = graphql(`
  mutation FaultRedisStallWrite($input: CreateResponseInput!) {
    createResponse(input: $input) {
      __typename
      ... on Response {
        dialog {
          id
          lastSeq
        }
      }
    }
  }
`);
const TYPENAME = graphql(`
  query FaultRedisStallTypename {
    __typename
  }
`);
const DELTAS = `subscription($d: ID!, $after: Int) { historyDelta(dialogId: $d, afterSeq: $after) { seq } }`;

describe("a stalled Redis (SIGSTOP)", async () => {
  const redis = await startOwnRedis();
  const server = await startServer({
    store,
    config: configWith({ REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) }),
    port: 0,
    redisUrl: redis.url,
    limits: { rateLimitRequests: 5, rateLimitWindowSeconds: 60, rateLimitBurstSeconds: 0 },
  });
  afterAll(async () => {
    redis.resume();
    await server.close();
  });

  /** POSTs with `key`, failing the request (status 0) if it takes longer than three bounds. */
  const timedCall = async <T, V>(key: string, document: TypedDocumentNode<T, V>, variables?: V) => {
    const started = performance.now();
    try {
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: print(document), variables }),
        signal: AbortSignal.timeout(3 * BOUND_MS),
      });
      return {
        status: response.status,
        body: (await response.json()) as GraphQLResult<T>,
        ms: performance.now() - started,
      };
    } catch {
      return { status: 0, body: null, ms: performance.now() - started };
    }
  };

  it("answers every request within the bound, counts rate limits in-process, delivers writes locally", async () => {
    const writer = await tenantKey("stall-writer");
    const counted = await tenantKey("stall-counted");
    const created = await timedCall(writer.key, CREATE, { input: { input: [{ human: { content: "before" } }] } });
    const dialogId = withField(created.body!.data!.createResponse, "dialog").dialog.id;

    const seqs: number[] = [];
    const subscription = wsAs(server, writer.key).iterate<{ historyDelta: { seq: number } }>({
      query: DELTAS,
      variables: { d: dialogId, after: 0 },
    });
    const nextSeq = async () => {
      const { value } = await subscription.next();
      seqs.push(value!.data!.historyDelta.seq);
      return seqs.at(-1);
    };
    expect(await nextSeq()).toBe(1);

    redis.pause();
    // Rate limits: a key's first 5 requests pass, the 6th is refused, each answered in time.
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await timedCall(counted.key, TYPENAME));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
    for (const answer of answers) expect(answer.ms).toBeLessThan(BOUND_MS);

    // A write is acknowledged in time and reaches this instance's subscriber.
    const write = await timedCall(writer.key, CREATE, {
      input: { dialogId, input: [{ human: { content: "during" } }] },
    });
    expect(write.status).toBe(200);
    expect(withField(write.body!.data!.createResponse, "dialog").dialog.lastSeq).toBe(2);
    expect(write.ms).toBeLessThan(BOUND_MS);
    expect(await nextSeq()).toBe(2);

    // A new subscription starts in time.
    const started = performance.now();
    const late = wsAs(server, writer.key).iterate<{ historyDelta: { seq: number } }>({
      query: DELTAS,
      variables: { d: dialogId, after: 1 },
    });
    expect((await late.next()).value?.data?.historyDelta.seq).toBe(2);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    await late.return?.();

    redis.resume();
    const after = await timedCall(writer.key, CREATE, {
      input: { dialogId, input: [{ human: { content: "after" } }] },
    });
    expect(withField(after.body!.data!.createResponse, "dialog").dialog.lastSeq).toBe(3);
    expect(await nextSeq()).toBe(3);
    expect(seqs).toEqual([1, 2, 3]);
    await subscription.return?.();
  });
});
