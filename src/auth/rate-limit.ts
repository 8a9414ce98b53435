// Requests per API key, counted in Redis when there is one (so the limit holds across instances)
// and in memory otherwise. While Redis is down the count falls back to this instance's memory
// (rate-limiter-flexible's insurance limiter) rather than refusing or waving everything through.
//
// Two fixed windows per key: the window itself (RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS)
// and a short one that holds the key to its share of the window over RATE_LIMIT_BURST_SECONDS
// (6,000 per 60 s: 100 per second). Without the short one a key may spend its whole window in its
// first seconds, and those bursts are what other tenants' requests on the same instance wait behind.
// Both are counted by one RateLimiterUnion, which sends both counts at once (one round trip); every
// request counts in both, refused ones too, so a client that retries without waiting spends its
// window sooner.
import type { Cluster, Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RateLimiterUnion } from "rate-limiter-flexible";
import { GraphQLError } from "graphql";
import { logger } from "../logger.js";

export interface RateLimitOptions {
  requests: number;
  windowSeconds: number;
  /** The span (whole seconds) over which a key may spend at most its share of the window; 0: no short limit. */
  burstSeconds?: number;
  /** One server or a cluster (each key is one API key's count: one slot). */
  redis?: Redis | Cluster | null;
}

/** One limit: at most `requests` per `seconds`. */
export interface Limit {
  requests: number;
  seconds: number;
}

export type RateLimitRefusal = { allowed: false; retryAfterMs: number; retryAfterSeconds: number; limit: Limit };
export type RateLimitDecision = { allowed: true } | RateLimitRefusal;

export interface RateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
}

/**
 * The limits a key is held to: the window, and its share of the window over `burstSeconds`
 * (rounded up, so the short limit never makes the window's total unreachable; none when the span
 * is 0 or not shorter than the window).
 */
export function limitsOf({ requests, windowSeconds, burstSeconds = 0 }: RateLimitOptions): Limit[] {
  if (requests <= 0) return [];
  const window = { requests, seconds: windowSeconds };
  if (burstSeconds <= 0 || burstSeconds >= windowSeconds) return [window];
  return [window, { requests: Math.ceil((requests * burstSeconds) / windowSeconds), seconds: burstSeconds }];
}

function counterOf(limit: Limit, keyPrefix: string, redis: Redis | Cluster | null | undefined) {
  const options = { points: limit.requests, duration: limit.seconds, keyPrefix };
  const memory = new RateLimiterMemory(options);
  if (!redis) return memory;
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const limits = limitsOf(options);
  if (limits.length === 0) return { consume: async () => ({ allowed: true }) };
  // The window keeps the prefix it always had, so a deploy does not reset the keys' counts.
  const prefixes = ["dialogql:rate", "dialogql:rate-burst"];
  const byPrefix = new Map(limits.map((limit, i) => [prefixes[i]!, limit]));
  const union = new RateLimiterUnion(...limits.map((limit, i) => counterOf(limit, prefixes[i]!, options.redis)));
  return {
    async consume(key) {
      try {
        await union.consume(key);
        return { allowed: true };
      } catch (rejections) {
        return decisionOf(rejections as Record<string, unknown>, byPrefix);
      }
    },
  };
}

/**
 * What the union's rejections (keyed by limiter prefix: a count over its limit, or an error when
 * neither Redis nor memory could count) decide: refused by the limit that frees up last.
 */
function decisionOf(rejections: Record<string, unknown>, byPrefix: Map<string, Limit>): RateLimitDecision {
  let refusal: RateLimitRefusal | null = null;
  for (const [prefix, rejection] of Object.entries(rejections)) {
    if (!(rejection instanceof RateLimiterRes)) {
      logger.warn(`[rate-limit] could not count a request: ${(rejection as Error).message}`);
      continue;
    }
    const retryAfterMs = Math.max(1, Math.ceil(rejection.msBeforeNext));
    if (refusal && refusal.retryAfterMs >= retryAfterMs) continue;
    // Retry-After is whole seconds: a sub-second wait is announced as 1.
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    refusal = { allowed: false, retryAfterMs, retryAfterSeconds, limit: byPrefix.get(prefix)! };
  }
  // Neither store could count: let the request through rather than fail it for our sake.
  return refusal ?? { allowed: true };
}

export function rateLimitedError({ retryAfterMs, retryAfterSeconds, limit }: RateLimitRefusal) {
  return new GraphQLError(
    `Rate limit exceeded: at most ${limit.requests} requests per ${limit.seconds} s for an API key; retry in ${retryAfterSeconds} s`,
    {
      extensions: {
        code: "RATE_LIMITED",
        retryAfterSeconds,
        retryAfterMs,
        http: { status: 429, headers: { "retry-after": String(retryAfterSeconds) } },
      },
    },
  );
}
