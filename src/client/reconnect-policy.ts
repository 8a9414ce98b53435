// When watchHistory (src/client/watch-history.ts) tries again after a dropped or failed
// subscription, which closes are final, and how what ended it is named.

/**
 * The wait before attempt `attempt` (1, 2, …): a random share of a ceiling that doubles from 250 ms
 * to at most 5 s ("full jitter"). The subscribers of an instance that died all lose their socket at
 * once: with the same wait they would all come back at once, to whichever instance is left, every
 * time; spread over the ceiling, the first come back within 250 ms and the rest follow.
 */
export const defaultRetryDelay = (attempt: number, random: () => number = Math.random) =>
  random() * Math.min(250 * 2 ** (attempt - 1), 5_000);

/** A subscription that lived this long before dropping was healthy: the backoff starts again. */
export const HEALTHY_SUBSCRIPTION_MS = 10_000;

/** graphql-ws sockets the server closed because of the key: 4401 (none or invalid), 4403 (revoked). */
export const isRefusalClose = (error: unknown) =>
  [4401, 4403].includes((error as { code?: unknown } | null)?.code as number);

/** What ended a subscription, as an Error. */
export function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  if (typeof error === "string") return new Error(error);
  // graphql-ws ends a subscription on a closed socket with the CloseEvent itself, and on a failed
  // one with an ErrorEvent; neither is an Error.
  const event = error as { code?: number; reason?: string; message?: string; type?: string };
  if (typeof event?.code === "number")
    return new Error(`connection closed (${event.code} ${event.reason ?? ""})`.trim());
  if (typeof event?.message === "string" && event.message) return new Error(event.message);
  return new Error(event?.type ? `connection ${event.type}` : String(error));
}
