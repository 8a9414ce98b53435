// Requests per API key per window, counted in Redis when there is one (so the limit holds across
// instances) and in memory otherwise. While Redis is down the count falls back to this instance's
// memory (rate-limiter-flexible's insurance limiter) rather than refusing or waving everything
// through.
import type { Cluster, Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { GraphQLError } from "graphql";
import { logger } from "../logger.js";

export interface RateLimitOptions {
  requests: number;
  windowSeconds: number;
  /** One server or a cluster (each key is one API key's count: one slot). */
  redis?: Redis | Cluster | null;
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
}

export function createRateLimiter({ requests, windowSeconds, redis }: RateLimitOptions): RateLimiter {
  if (requests <= 0) return { consume: async () => ({ allowed: true }) };
  const options = { points: requests, duration: windowSeconds, keyPrefix: "dialogql:rate" };
  const memory = new RateLimiterMemory(options);
  const limiter = redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: memory })
    : memory;
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
        return { allowed: true };
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
        }
        // Neither store could count: let the request through rather than fail it for our sake.
        logger.warn(`[rate-limit] could not count a request: ${(refusal as Error).message}`);
        return { allowed: true };
      }
    },
  };
}

export function rateLimitedError(retryAfterSeconds: number, requests: number, windowSeconds: number) {
  return new GraphQLError(
    `Rate limit exceeded: at most ${requests} requests per ${windowSeconds} s for an API key; retry in ${retryAfterSeconds} s`,
    {
      extensions: {
        code: "RATE_LIMITED",
        retryAfterSeconds,
        http: { status: 429, headers: { "retry-after": String(retryAfterSeconds) } },
      },
    },
  );
}
